// A JSON scanner that knows where things are: it checks the syntax of a text (reporting the line and column of
// the first error) and records, for every member and element, the line on which it starts, under the path the
// router's validation errors use: `id`, `operators[1].parallelism`, `operators[0].inputs[0].from`, `recovery.mode`.

export class JsonSyntaxError extends Error {
  constructor(message, offset, position) {
    super(message + ' at line ' + position.line + ', column ' + position.column);
    this.name = 'JsonSyntaxError';
    this.reason = message;
    this.offset = offset;
    this.line = position.line;
    this.column = position.column;
  }
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const ESCAPES = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't']);
const HEX4 = /^[0-9a-fA-F]{4}$/;

/**
 * @returns {{value: *, paths: Map<string, {line: number, column: number, offset: number}>}}
 * @throws JsonSyntaxError with the line (1-based) and column (1-based) of the first error
 */
export function scanJson(text) {
  const lineStarts = [0];
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      lineStarts.push(i + 1);
    }
  }
  const paths = new Map();
  let i = 0;

  function positionOf(offset) {
    let low = 0;
    let high = lineStarts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (lineStarts[mid] <= offset) {
        low = mid;
      } else {
        high = mid - 1;
      }
    }
    return { line: low + 1, column: offset - lineStarts[low] + 1, offset };
  }

  function fail(message, at) {
    const offset = at === undefined ? i : at;
    throw new JsonSyntaxError(message, offset, positionOf(Math.min(offset, text.length)));
  }

  function skipWhitespace() {
    while (i < text.length) {
      const c = text[i];
      if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
        i++;
      } else {
        return;
      }
    }
  }

  function describe(c) {
    return c === undefined ? 'the end of the text' : "'" + c + "'";
  }

  function value(path) {
    skipWhitespace();
    const c = text[i];
    if (c === '{') {
      object(path);
    } else if (c === '[') {
      array(path);
    } else if (c === '"') {
      string();
    } else if (c === '-' || (c >= '0' && c <= '9')) {
      NUMBER.lastIndex = i;
      const match = NUMBER.exec(text);
      if (!match) {
        fail('Malformed number');
      }
      i += match[0].length;
    } else if (text.startsWith('true', i)) {
      i += 4;
    } else if (text.startsWith('false', i)) {
      i += 5;
    } else if (text.startsWith('null', i)) {
      i += 4;
    } else {
      fail('Expected a value but found ' + describe(c)
        + (c === "'" ? ' (JSON strings take double quotes)' : ''));
    }
  }

  function object(path) {
    i++; // {
    skipWhitespace();
    if (text[i] === '}') {
      i++;
      return;
    }
    for (;;) {
      skipWhitespace();
      if (text[i] !== '"') {
        fail(text[i] === '}' ? 'Trailing comma before }' : 'Expected a quoted member name but found ' + describe(text[i]));
      }
      const keyStart = i;
      const key = string();
      const memberPath = path ? path + '.' + key : key;
      paths.set(memberPath, positionOf(keyStart));
      skipWhitespace();
      if (text[i] !== ':') {
        fail("Expected ':' after member name \"" + key + '" but found ' + describe(text[i]));
      }
      i++;
      value(memberPath);
      skipWhitespace();
      if (text[i] === ',') {
        i++;
      } else if (text[i] === '}') {
        i++;
        return;
      } else {
        fail("Expected ',' or '}' after the value of \"" + key + '" but found ' + describe(text[i]));
      }
    }
  }

  function array(path) {
    i++; // [
    skipWhitespace();
    if (text[i] === ']') {
      i++;
      return;
    }
    for (let index = 0; ; index++) {
      skipWhitespace();
      if (text[i] === ']') {
        fail('Trailing comma before ]');
      }
      const elementPath = path + '[' + index + ']';
      paths.set(elementPath, positionOf(i));
      value(elementPath);
      skipWhitespace();
      if (text[i] === ',') {
        i++;
      } else if (text[i] === ']') {
        i++;
        return;
      } else {
        fail("Expected ',' or ']' in an array but found " + describe(text[i]));
      }
    }
  }

  /** Reads a string token at i (on its opening quote) and returns its value. */
  function string() {
    const start = i;
    i++;
    for (;;) {
      if (i >= text.length) {
        fail('Unterminated string', start);
      }
      const c = text[i];
      if (c === '"') {
        i++;
        return JSON.parse(text.slice(start, i));
      }
      if (c === '\\') {
        const escape = text[i + 1];
        if (escape === 'u') {
          if (!HEX4.test(text.slice(i + 2, i + 6))) {
            fail('Malformed \\u escape in a string');
          }
          i += 6;
        } else if (ESCAPES.has(escape)) {
          i += 2;
        } else {
          fail('Unknown escape \\' + (escape === undefined ? '' : escape) + ' in a string');
        }
      } else if (c.charCodeAt(0) < 0x20) {
        fail(c === '\n' ? 'Unterminated string (a line ended inside it)' : 'Control character in a string');
      } else {
        i++;
      }
    }
  }

  paths.set('', positionOf(0));
  skipWhitespace();
  if (i >= text.length) {
    fail('The text is empty; expected a JSON object');
  }
  value('');
  skipWhitespace();
  if (i < text.length) {
    fail('Unexpected ' + describe(text[i]) + ' after the end of the JSON value');
  }
  return { value: JSON.parse(text), paths };
}

/**
 * The line a router error path points at: its own, or, for a member that is missing from the text (e.g. a
 * required `parallelism`), the nearest enclosing member or element that is there. Null if none below the root.
 */
export function locatePath(paths, path) {
  const normalised = String(path || '').replace(/^\$\.?/, '').replace(/\/+/g, '.');
  if (paths.has(normalised)) {
    return { ...paths.get(normalised), exact: true };
  }
  let candidate = normalised;
  while (candidate) {
    const cut = Math.max(candidate.lastIndexOf('.'), candidate.lastIndexOf('['));
    if (cut <= 0) {
      return null;
    }
    candidate = candidate.slice(0, cut);
    if (paths.has(candidate)) {
      return { ...paths.get(candidate), exact: false };
    }
  }
  return null;
}
