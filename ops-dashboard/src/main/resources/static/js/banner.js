// The page's error banner: one message per source (the live feed, the open view, an action), each saying what
// failed and what to check. A source clears its own message when it works again.
import { byId, el } from './dom.js';

const messages = new Map();

/** @param key who reports it: 'live', 'view', 'action' */
export function showProblem(key, title, detail, hint) {
  messages.set(key, { title, detail: detail || '', hint: hint || '' });
  render();
}

export function showError(key, title, error) {
  showProblem(key, title, error && error.message ? error.message : String(error), error && error.hint);
}

export function clearProblem(key) {
  if (messages.delete(key)) {
    render();
  }
}

function render() {
  const banner = byId('banner');
  if (messages.size === 0) {
    banner.hidden = true;
    banner.replaceChildren();
    return;
  }
  banner.replaceChildren(...Array.from(messages.values(), (message) => el('div', { className: 'banner-item' }, [
    el('strong', {}, message.title),
    message.detail ? el('span', {}, message.detail) : null,
    message.hint ? el('span', { className: 'hint' }, 'Check: ' + message.hint) : null,
  ])));
  banner.hidden = false;
}
