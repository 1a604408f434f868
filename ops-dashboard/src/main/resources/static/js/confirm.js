// Confirmation through the page's <dialog id="confirm-dialog"> (window.confirm would block the browser tests).
import { byId } from './dom.js';

/** Resolves true when the operator chose #confirm-yes, false on #confirm-no or Escape. */
export function confirmAction({ title, text, yes }) {
  const dialog = byId('confirm-dialog');
  byId('confirm-title').textContent = title;
  byId('confirm-text').textContent = text;
  byId('confirm-yes').textContent = yes || 'Yes';
  if (dialog.open) {
    dialog.close('no');
  }
  return new Promise((resolve) => {
    dialog.returnValue = 'no';
    dialog.addEventListener('close', () => resolve(dialog.returnValue === 'yes'), { once: true });
    dialog.showModal();
    byId('confirm-no').focus();
  });
}
