// Steadfast ops dashboard: the shell. Routes hash URLs to views, feeds them the live overview (SSE, polling as the
// fallback), re-fetches the open view's own data every 2 s, and keeps the header, ages and the error banner current.
//
// Each view module exports mount(container, params, ctx) and returns {refresh?, onOverview?, dispose?}:
//   refresh()        fetches the view's router data and renders it (rejects with an ApiError to show in the banner)
//   onOverview(o)    renders what the live overview says (called for every SSE update; must be cheap)
// A module exporting worksWithoutRouter = true is refreshed even while the overview says the router is down.
// #view carries data-view (the route name below) and data-ready="true" once the view has rendered its data.

import { byId, setText, updateBadge } from './dom.js';
import { settings } from './api.js';
import { startLiveOverview } from './live.js';
import { clearProblem, showError, showProblem } from './banner.js';
import { ageElement, syncClock, tickAges, updateAge } from './format.js';
import { recordOverview } from './operator-history.js';
import * as topologiesView from './views/topologies.js';
import * as topologyView from './views/topology.js';
import * as deployView from './views/deploy.js';
import * as checkpointsView from './views/checkpoints.js';
import * as recoveriesView from './views/recoveries.js';
import * as hostsView from './views/hosts.js';
import * as votesView from './views/votes.js';
import * as throughputView from './views/throughput.js';

const REFRESH_INTERVAL_MS = 2000;
const STALE_AFTER_MS = 5000;
const RENDER_HISTORY_LENGTH = 500;

/** route name (data-view), nav link it lights, pattern over the hash path, view module, page title */
const ROUTES = [
  ['topologies', 'topologies', /^\/topologies$/, topologiesView, 'Topologies'],
  ['checkpoints', 'checkpoints', /^\/topologies\/([^/]+)\/checkpoints$/, checkpointsView, 'Checkpoints'],
  ['topology', 'topologies', /^\/topologies\/([^/]+)$/, topologyView, 'Topology'],
  ['deploy', 'deploy', /^\/deploy$/, deployView, 'Deploy'],
  ['checkpoints', 'checkpoints', /^\/checkpoints$/, checkpointsView, 'Checkpoints'],
  ['recoveries', 'recoveries', /^\/recoveries(?:\/([^/]+))?$/, recoveriesView, 'Recoveries'],
  ['hosts', 'hosts', /^\/hosts$/, hostsView, 'Hosts'],
  ['votes', 'votes', /^\/votes(?:\/([^/]+))?$/, votesView, 'Votes'],
  ['throughput', 'throughput', /^\/throughput$/, throughputView, 'Throughput and latency'],
].map(([name, nav, pattern, module, title]) => ({ name, nav, pattern, module, title }));

const container = byId('view');
let current = null; // {route, controller, timer, inFlight, again, generation}
let generation = 0;
let latestOverview = null;
let lastOverviewAt = 0;
let lastSignature = '';

// How long each live update took, in ms from performance.now(): the script's own work (RenderHistory), and until the
// browser painted it (PaintHistory: style, layout and paint of the next frame included). Browser tests read both.
window.steadfastRenderHistory = window.steadfastRenderHistory || [];
window.steadfastPaintHistory = window.steadfastPaintHistory || [];

// ---- routing -----------------------------------------------------------------

function resolve() {
  const hash = decodeURI(location.hash.replace(/^#/, '')) || '/topologies';
  const path = hash.split('?')[0].replace(/\/+$/, '') || '/topologies';
  for (const route of ROUTES) {
    const match = route.pattern.exec(path);
    if (match) {
      return { route, params: match.slice(1).map((part) => (part === undefined ? undefined : safeDecode(part))) };
    }
  }
  return null;
}

function safeDecode(part) {
  try {
    return decodeURIComponent(part);
  } catch (ignored) {
    return part;
  }
}

function openView() {
  const resolved = resolve();
  if (!resolved) {
    location.replace('#/topologies');
    return;
  }
  closeView();
  clearProblem('view');
  clearProblem('action');
  const { route, params } = resolved;
  const myGeneration = ++generation;
  container.dataset.view = route.name;
  container.removeAttribute('data-ready');
  container.replaceChildren();
  document.title = route.title + (params[0] ? ' ' + params[0] : '') + ' · Steadfast operations';
  for (const link of document.querySelectorAll('a[data-nav]')) {
    if (link.dataset.nav === route.nav) {
      link.setAttribute('aria-current', 'page');
    } else {
      link.removeAttribute('aria-current');
    }
  }
  const ctx = {
    ready() {
      if (myGeneration === generation) {
        container.dataset.ready = 'true';
      }
    },
    navigate(hash) {
      location.hash = hash;
    },
    overview: () => latestOverview,
    settings,
    isCurrent: () => myGeneration === generation,
  };
  let controller;
  try {
    controller = route.module.mount(container, params, ctx) || {};
  } catch (error) {
    showError('view', 'The ' + route.title + ' view failed to open', error);
    throw error;
  }
  current = { route, controller, timer: 0, inFlight: false, again: false, generation: myGeneration };
  if (latestOverview && controller.onOverview) {
    renderOverviewInView(latestOverview);
  }
  refreshView();
}

function closeView() {
  if (!current) {
    return;
  }
  clearTimeout(current.timer);
  try {
    if (current.controller.dispose) {
      current.controller.dispose();
    }
  } finally {
    current = null;
  }
}

/** Runs the open view's refresh, then schedules the next one; a refresh asked for meanwhile runs right after. */
async function refreshView() {
  const view = current;
  if (!view || !view.controller.refresh) {
    return;
  }
  if (view.inFlight) {
    view.again = true;
    return;
  }
  clearTimeout(view.timer);
  if (latestOverview && !latestOverview.routerReachable && !view.route.module.worksWithoutRouter) {
    // The live overview already says the router is down (banner); asking it again would only fail. The overview
    // coming back reachable changes the signature, which refreshes the view at once.
    view.timer = setTimeout(refreshView, REFRESH_INTERVAL_MS);
    return;
  }
  view.inFlight = true;
  try {
    await view.controller.refresh();
    if (view === current) {
      clearProblem('view');
    }
  } catch (error) {
    if (view === current) {
      showError('view', 'The ' + view.route.title.toLowerCase() + ' view could not load its data', error);
    }
  } finally {
    view.inFlight = false;
    if (view === current) {
      if (view.again) {
        view.again = false;
        view.timer = setTimeout(refreshView, 0);
      } else {
        view.timer = setTimeout(refreshView, REFRESH_INTERVAL_MS);
      }
    }
  }
}

// ---- the live overview ---------------------------------------------------------

function onOverview(overview) {
  const started = performance.now();
  latestOverview = overview;
  lastOverviewAt = Date.now();
  syncClock(overview.fetchedAt);
  recordOverview(overview);
  renderHeader(overview);
  renderOverviewInView(overview);
  const millis = performance.now() - started;
  remember(window.steadfastRenderHistory, millis);
  // A task queued from a frame callback runs once that frame's style, layout and paint are done.
  requestAnimationFrame(() => setTimeout(() => remember(window.steadfastPaintHistory, performance.now() - started)));
  // Something the open view shows from the router changed (a task failed, a host died, a topology came or went):
  // refresh it now rather than at its next tick.
  const signature = signatureOf(overview);
  if (signature !== lastSignature) {
    const first = lastSignature === '';
    lastSignature = signature;
    if (!first) {
      refreshView();
    }
  }
}

function remember(history, millis) {
  history.push(millis);
  if (history.length > RENDER_HISTORY_LENGTH) {
    history.splice(0, history.length - RENDER_HISTORY_LENGTH);
  }
}

function renderOverviewInView(overview) {
  if (current && current.controller.onOverview) {
    try {
      current.controller.onOverview(overview);
    } catch (error) {
      showError('view', 'The ' + current.route.title.toLowerCase() + ' view failed to show an update', error);
      throw error;
    }
  }
}

function signatureOf(overview) {
  const parts = [overview.routerReachable ? 'up' : 'down'];
  for (const host of overview.hosts || []) {
    parts.push(host.hostId + ':' + host.status);
  }
  for (const topology of overview.topologies || []) {
    parts.push(topology.id + ':' + topology.status);
    for (const task of topology.tasks || []) {
      parts.push(task.task + '@' + task.host + ':' + task.status);
    }
  }
  return parts.join('|');
}

function renderHeader(overview) {
  const state = byId('router-state');
  updateBadge(state, overview.routerReachable ? 'REACHABLE' : 'UNREACHABLE',
    overview.routerReachable ? 'The dashboard read the router at ' + overview.routerUrl : overview.error);
  setText(state, overview.routerReachable ? 'reachable' : 'unreachable');
  setText(byId('router-url'), overview.routerUrl || '');

  const hosts = overview.hosts || [];
  const live = hosts.filter((host) => host.status === 'LIVE').length;
  const dead = hosts.length - live;
  const hostSummary = byId('host-summary');
  setText(hostSummary, overview.routerReachable
    ? live + ' live' + (dead ? ', ' + dead + ' not live' : '') : 'unknown');
  hostSummary.className = dead ? 'tone-bad' : 'muted';

  const topologies = overview.topologies || [];
  const failed = topologies.filter((topology) => topology.status === 'FAILED').length;
  const topologySummary = byId('topology-summary');
  setText(topologySummary, overview.routerReachable
    ? topologies.length + ' deployed' + (failed ? ', ' + failed + ' FAILED' : '') : 'unknown');
  topologySummary.className = failed ? 'tone-bad' : 'muted';

  const updated = byId('updated-at');
  const age = updated.querySelector('time.age');
  if (age) {
    updateAge(age, overview.fetchedAt);
  } else {
    updated.replaceChildren(ageElement(overview.fetchedAt));
  }

  if (overview.routerReachable) {
    clearProblem('router');
  } else {
    showProblem('router', 'The router at ' + overview.routerUrl + ' is unreachable; the page shows no live data.',
      overview.error || 'No reason given.',
      'Is the router process running, and is steadfast.dashboard.router-url right? Router replicas: is one leading?');
  }
}

function onTransport(text) {
  setText(byId('transport'), '(' + text + ')');
}

function onFeedFailure(error) {
  if (error) {
    showError('live', 'The dashboard backend did not send the overview.',
      Object.assign(new Error(error.message), { hint: 'Is the ops-dashboard process still running?' }));
  } else {
    clearProblem('live');
  }
}

/** No update for a while means the backend, not the router, is gone: say so instead of showing old numbers as live. */
function checkStale() {
  tickAges(document);
  if (!lastOverviewAt) {
    return;
  }
  const silence = Date.now() - lastOverviewAt;
  if (silence > STALE_AFTER_MS) {
    const seconds = Math.round(silence / 1000);
    const state = byId('router-state');
    updateBadge(state, 'STALE', 'No overview from the dashboard backend for ' + seconds + ' s');
    setText(state, 'no update for ' + seconds + ' s');
    showProblem('stale', 'No update for ' + seconds + ' s: the numbers on this page are stale.',
      'The last overview arrived at ' + new Date(lastOverviewAt).toLocaleTimeString('en-GB') + '.',
      'Is the ops-dashboard process still running, and can this browser reach it?');
  } else {
    clearProblem('stale');
  }
}

// ---- start ---------------------------------------------------------------------

window.addEventListener('hashchange', openView);
setInterval(checkStale, 1000);
settings().then((s) => {
  setText(byId('version'), s.version ? 'Steadfast ' + s.version + ' · ' : '');
});
startLiveOverview({ onOverview, onTransport, onFailure: onFeedFailure });
if (!location.hash || location.hash === '#' || location.hash === '#/') {
  history.replaceState(null, '', '#/topologies');
}
openView();
