// A plain textarea with line numbers and error markers on its lines: the syntax error the scanner finds while
// typing, and the router's validation errors placed at the line of the field they name
// (`.field-error[data-field="operators[1].parallelism"]`). Lines never wrap, so a line number is a row.
import { el } from './dom.js';
import { scanJson, locatePath, JsonSyntaxError } from './json-scanner.js';

const LINE_HEIGHT = 20; // px; app.css sets the same for .json-editor textarea and gutter
const PADDING_TOP = 8; // px; likewise

export function createJsonEditor({ id, label, onChange }) {
  const gutter = el('div', { className: 'gutter', 'aria-hidden': 'true' });
  const markers = el('div', { className: 'markers' });
  const textarea = el('textarea', {
    id, spellcheck: false, wrap: 'off', autocomplete: 'off', autocapitalize: 'off',
    'aria-label': label, 'aria-describedby': id + '-status',
  });
  const status = el('p', { id: id + '-status', className: 'editor-status', 'aria-live': 'polite' });
  const area = el('div', { className: 'editor-area' }, [textarea, markers]);
  const element = el('div', { className: 'json-editor-wrap' }, [el('div', { className: 'json-editor' }, [gutter, area]), status]);

  let lineCount = 0;
  let checkTimer = 0;
  const errorLines = new Set();

  function renderGutter() {
    const count = textarea.value.split('\n').length;
    if (count !== lineCount) {
      lineCount = count;
      const lines = [];
      for (let n = 1; n <= count; n++) {
        lines.push(el('span', { className: errorLines.has(n) ? 'error' : '' }, String(n)));
      }
      gutter.replaceChildren(...lines);
    }
    syncScroll();
  }

  function syncScroll() {
    gutter.scrollTop = textarea.scrollTop;
    markers.style.transform = 'translateY(' + -textarea.scrollTop + 'px)';
  }

  function markLines() {
    gutter.querySelectorAll('span').forEach((span, index) => {
      span.classList.toggle('error', errorLines.has(index + 1));
    });
  }

  function clearMarkers() {
    markers.replaceChildren();
    errorLines.clear();
    markLines();
  }

  function addMarker(line, className, text, field) {
    errorLines.add(line);
    const top = PADDING_TOP + (line - 1) * LINE_HEIGHT;
    markers.append(el('div', { className: 'line-band', style: 'top:' + top + 'px' }));
    const marker = el('div', { className: 'editor-marker ' + className, style: 'top:' + top + 'px', title: text }, text);
    if (field !== undefined) {
      marker.dataset.field = field;
    }
    markers.append(marker);
    return marker;
  }

  /** Checks the syntax; shows the first error at its line. Returns the parsed value and paths, or null. */
  function check() {
    clearTimeout(checkTimer);
    markers.querySelectorAll('.syntax-error, .syntax-band').forEach((node) => node.remove());
    try {
      const result = scanJson(textarea.value);
      status.textContent = 'Valid JSON, ' + lineCount + ' lines.';
      status.className = 'editor-status ok';
      return result;
    } catch (error) {
      if (!(error instanceof JsonSyntaxError)) {
        throw error;
      }
      clearMarkers();
      addMarker(error.line, 'syntax-error', 'Syntax: ' + error.reason + ' (column ' + error.column + ')');
      markLines();
      status.textContent = 'JSON syntax error: ' + error.message + '.';
      status.className = 'editor-status bad';
      return null;
    }
  }

  /**
   * Places each {field, operator, message} at the line its path names. Returns those it could not place (an
   * unknown path), which the caller lists anyway.
   */
  function showFieldErrors(errors, paths) {
    clearMarkers();
    const unplaced = [];
    for (const error of errors) {
      const where = error.field ? locatePath(paths, error.field) : null;
      if (!where) {
        unplaced.push(error);
        continue;
      }
      const prefix = where.exact ? '' : '(near) ';
      addMarker(where.line, 'field-error', prefix + error.field + ': ' + error.message, error.field);
    }
    markLines();
    return unplaced;
  }

  /** Selects line {@code line} and scrolls it into view. */
  function focusLine(line) {
    const lines = textarea.value.split('\n');
    let start = 0;
    for (let n = 1; n < line && n <= lines.length; n++) {
      start += lines[n - 1].length + 1;
    }
    const end = start + (lines[line - 1] || '').length;
    textarea.focus();
    textarea.setSelectionRange(start, end);
    textarea.scrollTop = Math.max(0, (line - 3) * LINE_HEIGHT);
    syncScroll();
  }

  textarea.addEventListener('scroll', syncScroll);
  textarea.addEventListener('input', () => {
    renderGutter();
    markers.querySelectorAll('.field-error').forEach((node) => node.classList.add('outdated'));
    clearTimeout(checkTimer);
    checkTimer = setTimeout(check, 250);
    if (onChange) {
      onChange();
    }
  });

  return {
    element,
    textarea,
    getText: () => textarea.value,
    setText(text) {
      textarea.value = text;
      clearMarkers();
      renderGutter();
      check();
    },
    check,
    showFieldErrors,
    clearMarkers,
    focusLine,
    refresh: renderGutter,
  };
}
