// Small DOM helpers: elements built from data (text is always set as text, never parsed as HTML),
// status badges, and table rows reused by key so that a live update touches only what changed.

export const SVG_NS = 'http://www.w3.org/2000/svg'; // an XML namespace name, not a download

/** Creates an element; string children become text nodes, null/false children are skipped. */
export function el(tag, props, children) {
  const node = document.createElement(tag);
  applyProps(node, props);
  appendChildren(node, children);
  return node;
}

/** Creates an SVG element; every prop is an attribute. */
export function svg(tag, attrs, children) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [name, value] of Object.entries(attrs || {})) {
    if (value !== undefined && value !== null) {
      node.setAttribute(name, String(value));
    }
  }
  appendChildren(node, children);
  return node;
}

function applyProps(node, props) {
  for (const [name, value] of Object.entries(props || {})) {
    if (value === undefined || value === null || value === false) {
      continue;
    }
    if (name.startsWith('on') && typeof value === 'function') {
      node.addEventListener(name.slice(2), value);
    } else if (name === 'dataset') {
      Object.assign(node.dataset, value);
    } else if (name in node && !name.includes('-') && name !== 'list') {
      node[name] = value;
    } else {
      node.setAttribute(name, value === true ? '' : String(value));
    }
  }
}

function appendChildren(node, children) {
  if (children === undefined || children === null) {
    return;
  }
  if (!Array.isArray(children)) {
    children = [children];
  }
  for (const child of children) {
    if (child === undefined || child === null || child === false) {
      continue;
    }
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Sets text only when it differs: writing equal text still costs a layout in some browsers. */
export function setText(node, text) {
  const value = text === undefined || text === null ? '' : String(text);
  if (node.textContent !== value) {
    node.textContent = value;
  }
}

export function setAttr(node, name, value) {
  if (value === undefined || value === null) {
    if (node.hasAttribute(name)) {
      node.removeAttribute(name);
    }
  } else if (node.getAttribute(name) !== String(value)) {
    node.setAttribute(name, String(value));
  }
}

const STATUS_TONES = {
  ok: ['LIVE', 'RUNNING', 'UP', 'COMPLETED', 'RECOVERED', 'ACTIVE', 'REACHABLE', 'AGREED'],
  info: ['FINISHED', 'RECOVERING', 'STANDBY'],
  warn: ['CANCELLED', 'UNREGISTERED', 'ABANDONED', 'SKIPPING', 'PAUSED', 'EXCLUDED', 'STALE'],
  bad: ['DEAD', 'FAILED', 'DOWN', 'UNREACHABLE'],
};
const TONE_BY_STATUS = new Map();
for (const [tone, statuses] of Object.entries(STATUS_TONES)) {
  statuses.forEach((status) => TONE_BY_STATUS.set(status, tone));
}

/** ok, info, warn, bad or neutral: the colour of a status; the badge shows the word too, never colour alone. */
export function toneOf(status) {
  return TONE_BY_STATUS.get(String(status || '').toUpperCase()) || 'neutral';
}

export function badge(status, title) {
  const text = status || 'UNKNOWN';
  return el('span', { className: 'badge badge-' + toneOf(text), title }, text);
}

/** Updates a badge made by {@link badge} in place. */
export function updateBadge(node, status, title) {
  const text = status || 'UNKNOWN';
  setText(node, text);
  const className = 'badge badge-' + toneOf(text);
  if (node.className !== className) {
    node.className = className;
  }
  setAttr(node, 'title', title);
}

/**
 * Makes the rows of {@code tbody} match {@code items}: a row per key, created once by {@code create(item)} and
 * brought up to date by {@code update(row, item)} on every call; rows of vanished keys are removed. Rows keep their
 * DOM (and so focus, open details and selection) across updates.
 */
export function syncRows(tbody, items, keyOf, create, update) {
  let rows = tbody._rowsByKey;
  if (!rows) {
    rows = new Map();
    tbody._rowsByKey = rows;
  }
  const keys = items.map((item) => String(keyOf(item)));
  const wanted = new Set(keys);
  for (const [key, row] of rows) {
    if (!wanted.has(key)) {
      row.remove();
      rows.delete(key);
    }
  }
  for (const child of Array.from(tbody.children)) {
    if (!child._keyed) {
      child.remove(); // an empty-state row
    }
  }
  let cursor = tbody.firstChild;
  items.forEach((item, i) => {
    let row = rows.get(keys[i]);
    if (!row) {
      row = create(item);
      row._keyed = true;
      rows.set(keys[i], row);
    }
    update(row, item);
    if (row === cursor) {
      cursor = cursor.nextSibling;
    } else {
      tbody.insertBefore(row, cursor);
    }
  });
}

/** A single full-width row saying why the table is empty; replaces any keyed rows. */
export function emptyRow(tbody, columns, text) {
  tbody._rowsByKey = null;
  tbody.replaceChildren(el('tr', { className: 'empty' }, [el('td', { colSpan: columns }, text)]));
}

/** A table with a caption-less header row; returns {table, tbody}. */
export function table(headers, className) {
  const tbody = el('tbody');
  const head = el('tr', {}, headers.map((header) => {
    const spec = typeof header === 'string' ? { text: header } : header;
    return el('th', { scope: 'col', className: spec.num ? 'num' : '', title: spec.title }, spec.text);
  }));
  const tableNode = el('table', { className: 'data ' + (className || '') }, [el('thead', {}, head), tbody]);
  return { table: tableNode, tbody };
}

/** Cells of a row by data-field, made once per row. */
export function cells(row) {
  if (!row._cells) {
    row._cells = {};
    for (const cell of row.querySelectorAll('[data-field]')) {
      row._cells[cell.dataset.field] = cell;
    }
  }
  return row._cells;
}

export function byId(id) {
  return document.getElementById(id);
}
