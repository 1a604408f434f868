// The dashboard backend's JSON API (section 1 of the dashboard contract). Every call resolves or rejects with an
// ApiError that says what failed and what to check, so that views can show it instead of letting it reach the console.

const JSON_HEADERS = { Accept: 'application/json, application/problem+json' };

/** A failed call: {@code status} 0 when the backend did not answer at all; {@code problem} the RFC 9457 body. */
export class ApiError extends Error {
  constructor(method, url, status, problem, cause) {
    super(describe(method, url, status, problem, cause));
    this.name = 'ApiError';
    this.method = method;
    this.url = url;
    this.status = status;
    this.problem = problem || null;
    this.reason = problem && problem.reason || null;
  }

  /** What the operator should check, in a sentence. */
  get hint() {
    return hintFor(this.status, this.reason, this.url);
  }
}

function describe(method, url, status, problem, cause) {
  if (status === 0) {
    return method + ' ' + url + ' got no answer from the dashboard backend'
      + (cause && cause.message ? ' (' + cause.message + ')' : '');
  }
  const title = problem && (problem.title || problem.error);
  const detail = problem && (problem.detail || problem.message);
  return method + ' ' + url + ' answered HTTP ' + status + (title ? ' ' + title : '') + (detail ? ': ' + detail : '');
}

function hintFor(status, reason, url) {
  switch (reason) {
    case 'ROUTER_UNREACHABLE':
      return 'Is the router running, and is steadfast.dashboard.router-url (or its replica list) right?';
    case 'NOT_LEADER':
      return 'The router replicas have not elected a leader yet; wait a few seconds or check their /api/v1/leader.';
    case 'FAULT_INJECTION_DISABLED':
      return 'Set steadfast.dashboard.fault-injection.enabled=true on the dashboard to kill hosts from this page.';
    case 'HOST_FAULT_INJECTION_DISABLED':
      return 'The host refuses: set steadfast.host.fault-injection.enabled=true on it.';
    case 'HOST_UNREACHABLE':
      return 'The host did not answer its control URL: it may already be down.';
    default:
      break;
  }
  if (status === 0) {
    return 'Is the ops-dashboard process still running, and is this page served by it?';
  }
  if (status === 404) {
    return url.includes('/topologies/') ? 'The topology may have been cancelled; see the topology list.'
      : 'This dashboard backend may be older than the page; reload the page.';
  }
  if (status === 502 || status === 503 || status === 504) {
    return 'The router did not answer; check that it runs and that the dashboard can reach it.';
  }
  if (status >= 500) {
    return 'See the ops-dashboard and router logs.';
  }
  return '';
}

async function request(method, url, body) {
  const init = { method, headers: { ...JSON_HEADERS }, cache: 'no-store' };
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = typeof body === 'string' ? body : JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(url, init);
  } catch (error) {
    throw new ApiError(method, url, 0, null, error);
  }
  const text = await response.text().catch(() => '');
  let data = null;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch (ignored) {
      data = { detail: text.slice(0, 300) };
    }
  }
  if (!response.ok) {
    throw new ApiError(method, url, response.status, data);
  }
  return { status: response.status, data };
}

export async function getJson(url) {
  return (await request('GET', url)).data;
}

const enc = encodeURIComponent;

export const api = {
  overview: () => getJson('/api/v1/overview'),
  settings: () => getJson('/api/v1/settings'),
  examples: () => getJson('/api/v1/examples'),
  topologies: () => getJson('/api/v1/topologies'),
  topology: (id) => getJson('/api/v1/topologies/' + enc(id)),
  plan: (id) => getJson('/api/v1/topologies/' + enc(id) + '/plan'),
  checkpoints: (id) => getJson('/api/v1/topologies/' + enc(id) + '/checkpoints'),
  /** One checkpoint with each task's ack; a 404 (CHECKPOINT_NOT_FOUND) once the store no longer keeps it. */
  checkpoint: (id, checkpointId) => getJson('/api/v1/topologies/' + enc(id) + '/checkpoints/' + enc(checkpointId)),
  votes: (id) => getJson('/api/v1/topologies/' + enc(id) + '/votes'),
  recoveries: (topology) => getJson('/api/v1/recoveries' + (topology ? '?topology=' + enc(topology) : '')),
  hosts: () => getJson('/api/v1/hosts'),
  /** Resolves to {status, data}; rejects with an ApiError whose problem carries {@code errors} on a 400. */
  deploy: (specText) => request('POST', '/api/v1/topologies', specText),
  cancel: (id) => request('DELETE', '/api/v1/topologies/' + enc(id)),
  killHost: (hostId) => request('POST', '/api/v1/hosts/' + enc(hostId) + '/kill'),
};

/** Settings with safe defaults when the backend cannot say (then no Kill button is offered). */
let settingsPromise = null;
export function settings() {
  if (!settingsPromise) {
    settingsPromise = api.settings().catch(() => {
      settingsPromise = null; // ask again next time
      return { routerUrls: [], faultInjection: false, votes: true, version: '' };
    });
  }
  return settingsPromise;
}
