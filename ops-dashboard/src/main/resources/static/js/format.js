// Numbers, sizes, durations and ages as an operator reads them. Ages are measured against the dashboard
// backend's clock (the overview's fetchedAt), so a skewed browser clock does not make a live host look dead.
import { el, setAttr, setText } from './dom.js';

let serverOffsetMillis = 0;

/** The backend said it was {@code instant} just now: ages use its clock from here on. */
export function syncClock(instant) {
  const at = Date.parse(instant);
  if (isFinite(at)) {
    serverOffsetMillis = at - Date.now();
  }
}

export function now() {
  return Date.now() + serverOffsetMillis;
}

const integerFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const oneDecimalFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });
const twoDecimalFormat = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });

export function formatCount(value) {
  const number = Number(value);
  return isFinite(number) ? integerFormat.format(number) : '–';
}

/** Events per second without the unit: one decimal below 100, whole numbers above. */
export function formatRate(value) {
  const number = Number(value);
  if (!isFinite(number)) {
    return '–';
  }
  return Math.abs(number) < 100 ? oneDecimalFormat.format(number) : integerFormat.format(number);
}

export function formatEventsPerSecond(value) {
  return formatRate(value) + ' events/s';
}

/** A latency: 0.42 ms, 3.1 ms, 85 ms, 1.2 s; a dash when there is none (nothing was taken in). */
export function formatLatency(millis) {
  const ms = Number(millis);
  if (millis === null || millis === undefined || !isFinite(ms)) {
    return '–';
  }
  return ms >= 1000 ? oneDecimalFormat.format(ms / 1000) + ' s' : formatMillis(ms) + ' ms';
}

/** Milliseconds without the unit, to a precision that tells small values apart: 0.42, 3.1, 85, 1,250. */
export function formatMillis(millis) {
  const ms = Number(millis);
  if (!isFinite(ms)) {
    return '–';
  }
  if (Math.abs(ms) >= 10) {
    return integerFormat.format(ms);
  }
  return (Math.abs(ms) >= 1 ? oneDecimalFormat : twoDecimalFormat).format(ms);
}

const BYTE_UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];

export function formatBytes(value) {
  let number = Number(value);
  if (value === null || value === undefined || !isFinite(number)) {
    return '–';
  }
  let unit = 0;
  while (Math.abs(number) >= 1024 && unit < BYTE_UNITS.length - 1) {
    number /= 1024;
    unit++;
  }
  return (unit === 0 ? integerFormat.format(number) : oneDecimalFormat.format(number)) + ' ' + BYTE_UNITS[unit];
}

/** 850 ms, 2.3 s, 4 min 5 s, 2 h 10 min. */
export function formatDuration(millis) {
  const ms = Number(millis);
  if (millis === null || millis === undefined || !isFinite(ms)) {
    return '–';
  }
  if (ms < 1000) {
    return integerFormat.format(ms) + ' ms';
  }
  if (ms < 60_000) {
    return oneDecimalFormat.format(ms / 1000) + ' s';
  }
  if (ms < 3_600_000) {
    return Math.floor(ms / 60_000) + ' min ' + Math.floor((ms % 60_000) / 1000) + ' s';
  }
  return Math.floor(ms / 3_600_000) + ' h ' + Math.floor((ms % 3_600_000) / 60_000) + ' min';
}

export function formatAge(instant) {
  const at = Date.parse(instant);
  if (!instant || !isFinite(at)) {
    return 'never';
  }
  const seconds = (now() - at) / 1000;
  if (seconds < 1) {
    return 'just now';
  }
  if (seconds < 60) {
    return Math.floor(seconds) + ' s ago';
  }
  if (seconds < 3600) {
    return Math.floor(seconds / 60) + ' min ago';
  }
  if (seconds < 86400) {
    return Math.floor(seconds / 3600) + ' h ago';
  }
  return Math.floor(seconds / 86400) + ' d ago';
}

/** The exact time, for a title: local time with milliseconds, and the ISO instant. */
export function exactTime(instant) {
  const date = new Date(instant);
  if (!instant || isNaN(date)) {
    return '';
  }
  return date.toLocaleString('en-GB', { hour12: false }) + '.' + String(date.getMilliseconds()).padStart(3, '0')
    + ' (' + date.toISOString() + ')';
}

export function clockTime(instant) {
  const date = new Date(instant);
  return !instant || isNaN(date) ? '–' : date.toLocaleTimeString('en-GB', { hour12: false });
}

/** A {@code <time class="age">} showing "3 s ago", the exact time in its title; {@link tickAges} keeps it current. */
export function ageElement(instant) {
  const node = el('time', { className: 'age' });
  updateAge(node, instant);
  return node;
}

export function updateAge(node, instant) {
  setAttr(node, 'datetime', instant || null);
  setAttr(node, 'title', instant ? exactTime(instant) : null);
  setText(node, formatAge(instant));
}

/** Re-renders every age on the page; the shell calls it once a second. */
export function tickAges(root) {
  for (const node of root.querySelectorAll('time.age')) {
    const instant = node.getAttribute('datetime');
    setText(node, formatAge(instant));
  }
}

/** "operator#3" of "topology/operator#3". */
export function shortTaskId(taskId) {
  const text = String(taskId);
  const slash = text.indexOf('/');
  return slash >= 0 ? text.slice(slash + 1) : text;
}

/** The operator id of a task id {@code topology/operator#subtask}. */
export function operatorOfTask(taskId) {
  const text = shortTaskId(taskId);
  const hash = text.lastIndexOf('#');
  return hash >= 0 ? text.slice(0, hash) : text;
}
