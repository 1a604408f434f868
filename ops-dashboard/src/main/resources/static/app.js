// Steadfast ops dashboard: renders the overview the backend assembles from the router.
// Live updates come from server-sent events; if those fail, the page polls instead.
'use strict';

(function () {
  const EVENTS_URL = '/api/v1/events';
  const OVERVIEW_URL = '/api/v1/overview';
  const POLL_INTERVAL_MS = 2000;
  const SSE_FIRST_EVENT_TIMEOUT_MS = 5000;
  const STALE_AFTER_MS = 5000;
  const HISTORY_LENGTH = 60;
  const SVG_NS = 'http://www.w3.org/2000/svg'; // an XML namespace name, not a download

  // events/s of each operator over the last HISTORY_LENGTH updates, keyed "topology/operator"
  const history = new Map();
  // failure <details> the user opened, keyed "topology/task", kept open across re-renders
  const openFailures = new Set();
  let lastUpdateAt = 0;
  let transport = 'connecting';

  // ---- data sources ------------------------------------------------------

  function connect() {
    if (!('EventSource' in window)) {
      startPolling('this browser has no EventSource');
      return;
    }
    const source = new EventSource(EVENTS_URL);
    let received = false;
    const firstEventTimer = setTimeout(() => {
      if (!received) {
        source.close();
        startPolling('no event within ' + SSE_FIRST_EVENT_TIMEOUT_MS / 1000 + ' s');
      }
    }, SSE_FIRST_EVENT_TIMEOUT_MS);

    source.addEventListener('overview', (event) => {
      received = true;
      clearTimeout(firstEventTimer);
      setTransport('live stream');
      update(JSON.parse(event.data));
    });
    source.addEventListener('error', () => {
      // EventSource reconnects by itself after a dropped stream (readyState CONNECTING); only a stream it
      // gave up on (CLOSED: e.g. a non-200 answer) or one that never delivered means SSE does not work here.
      if (source.readyState === EventSource.CLOSED || !received) {
        clearTimeout(firstEventTimer);
        source.close();
        startPolling('the event stream failed');
      } else {
        setTransport('live stream, reconnecting…');
      }
    });
  }

  let polling = false;
  function startPolling(reason) {
    if (polling) {
      return;
    }
    polling = true;
    setTransport('polling every ' + POLL_INTERVAL_MS / 1000 + ' s (' + reason + ')');
    const poll = async () => {
      try {
        const response = await fetch(OVERVIEW_URL, { headers: { Accept: 'application/json' }, cache: 'no-store' });
        if (!response.ok) {
          throw new Error('GET ' + OVERVIEW_URL + ' answered HTTP ' + response.status);
        }
        update(await response.json());
      } catch (error) {
        showBanner('The dashboard backend did not answer', String(error && error.message || error)
          + '. Is the ops-dashboard process still running?');
      } finally {
        setTimeout(poll, POLL_INTERVAL_MS);
      }
    };
    poll();
  }

  function setTransport(text) {
    transport = text;
    byId('transport').textContent = '(' + text + ')';
  }

  // ---- rendering ---------------------------------------------------------

  function update(overview) {
    lastUpdateAt = Date.now();
    recordHistory(overview);
    renderHeader(overview);
    renderHosts(overview);
    renderTopologies(overview);
  }

  function recordHistory(overview) {
    const seen = new Set();
    for (const topology of overview.topologies || []) {
      for (const operator of topology.operators || []) {
        const key = topology.id + '/' + operator.operator;
        seen.add(key);
        const values = history.get(key) || [];
        values.push(Number(operator.eventsPerSecond) || 0);
        if (values.length > HISTORY_LENGTH) {
          values.splice(0, values.length - HISTORY_LENGTH);
        }
        history.set(key, values);
      }
    }
    // Forget cancelled topologies, but keep history through a router outage (nothing is listed then).
    if (overview.routerReachable) {
      for (const key of history.keys()) {
        if (!seen.has(key)) {
          history.delete(key);
        }
      }
    }
  }

  function renderHeader(overview) {
    const state = byId('router-state');
    state.textContent = overview.routerReachable ? 'reachable' : 'unreachable';
    state.className = 'badge ' + (overview.routerReachable ? 'badge-ok' : 'badge-bad');
    byId('router-url').textContent = overview.routerUrl;
    byId('updated-at').textContent = formatTime(overview.fetchedAt);
    byId('updated-at').dateTime = overview.fetchedAt;
    if (overview.routerReachable) {
      hideBanner();
    } else {
      showBanner('The router at ' + overview.routerUrl + ' is unreachable; showing no data',
        overview.error || 'no reason given');
    }
  }

  function renderHosts(overview) {
    const body = byId('hosts-body');
    const hosts = overview.hosts || [];
    const rows = hosts.map((host) => el('tr', {}, [
      el('th', { scope: 'row' }, host.hostId),
      el('td', { title: host.kind === 'VOTER' ? 'runs the vote tasks of N-version operators' : 'runs every other task' },
        host.kind === 'VOTER' ? 'voter' : 'PE'),
      el('td', {}, [badge(host.status)]),
      el('td', { className: 'num', title: host.lastHeartbeat || '' },
        ageText(host.lastHeartbeat, overview.fetchedAt)),
      el('td', { className: 'num' }, String((host.tasks || []).length)),
      el('td', { className: 'muted' }, host.controlUrl || ''),
    ]));
    if (rows.length === 0) {
      rows.push(el('tr', {}, [el('td', { colSpan: 6, className: 'muted' },
        overview.routerReachable ? 'No host has registered with the router.' : 'Unknown: the router is unreachable.')]));
    }
    body.replaceChildren(...rows);
  }

  function renderTopologies(overview) {
    const container = byId('topologies');
    const topologies = overview.topologies || [];
    if (topologies.length === 0) {
      container.replaceChildren(el('p', { className: 'muted' },
        overview.routerReachable ? 'No topology is deployed.' : 'Unknown: the router is unreachable.'));
      return;
    }
    container.replaceChildren(...topologies.map(topologyCard));
  }

  function topologyCard(topology) {
    const headingId = 'topology-' + cssId(topology.id);
    const children = [
      el('div', { className: 'card-header' }, [
        el('h3', { id: headingId }, topology.id),
        badge(topology.status),
        el('span', { className: 'muted' }, topology.deployedAt ? 'deployed ' + formatTime(topology.deployedAt) : ''),
      ]),
    ];
    if (topology.error) {
      children.push(el('p', { className: 'error' }, 'Detail unavailable: ' + topology.error));
    } else {
      children.push(operatorTable(topology), taskTable(topology));
    }
    return el('section', { className: 'card', 'aria-labelledby': headingId }, children);
  }

  function operatorTable(topology) {
    const rows = (topology.operators || []).map((operator) => {
      const values = history.get(topology.id + '/' + operator.operator) || [];
      return el('tr', {}, [
        el('th', { scope: 'row' }, operator.operator),
        el('td', { className: 'num' }, formatRate(operator.eventsPerSecond)),
        el('td', {}, [sparkline(values, operator.operator)]),
        el('td', { className: 'num' }, formatCount(operator.recordsIn)),
        el('td', { className: 'num' }, formatCount(operator.recordsOut)),
      ]);
    });
    return el('table', { className: 'data' }, [
      el('caption', {}, [el('h4', {}, 'Operators')]),
      el('thead', {}, [el('tr', {}, [
        el('th', { scope: 'col' }, 'Operator'),
        el('th', { scope: 'col', className: 'num' }, 'Events/s'),
        el('th', { scope: 'col' }, 'Last ' + HISTORY_LENGTH + ' updates'),
        el('th', { scope: 'col', className: 'num' }, 'Records in'),
        el('th', { scope: 'col', className: 'num' }, 'Records out'),
      ])]),
      el('tbody', {}, rows),
    ]);
  }

  function taskTable(topology) {
    const rows = (topology.tasks || []).map((task) => {
      const hostCell = [document.createTextNode(task.host)];
      if (task.hostStatus && task.hostStatus !== 'LIVE') {
        hostCell.push(document.createTextNode(' '), badge(task.hostStatus));
      }
      return el('tr', {}, [
        el('th', { scope: 'row' }, task.task),
        el('td', {}, hostCell),
        el('td', {}, [task.status === 'FAILED' && task.failure
          ? failureDetails(topology.id + '/' + task.task, task.failure)
          : badge(task.status)]),
        el('td', { className: 'num' }, formatCount(task.recordsIn)),
        el('td', { className: 'num' }, formatCount(task.recordsOut)),
      ]);
    });
    return el('table', { className: 'data' }, [
      el('caption', {}, [el('h4', {}, 'Tasks')]),
      el('thead', {}, [el('tr', {}, [
        el('th', { scope: 'col' }, 'Task'),
        el('th', { scope: 'col' }, 'Host'),
        el('th', { scope: 'col' }, 'Status'),
        el('th', { scope: 'col', className: 'num' }, 'Records in'),
        el('th', { scope: 'col', className: 'num' }, 'Records out'),
      ])]),
      el('tbody', {}, rows),
    ]);
  }

  function failureDetails(key, failure) {
    const details = el('details', {}, [
      el('summary', {}, [badge('FAILED'), document.createTextNode(' why?')]),
      el('pre', {}, failure),
    ]);
    details.open = openFailures.has(key);
    details.addEventListener('toggle', () => {
      if (details.open) {
        openFailures.add(key);
      } else {
        openFailures.delete(key);
      }
    });
    return details;
  }

  /** A small line chart of events/s; its label states the range in words for screen readers. */
  function sparkline(values, operator) {
    const width = 120;
    const height = 24;
    const svg = document.createElementNS(SVG_NS, 'svg');
    svg.setAttribute('class', 'sparkline');
    svg.setAttribute('width', String(width));
    svg.setAttribute('height', String(height));
    svg.setAttribute('viewBox', '0 0 ' + width + ' ' + height);
    svg.setAttribute('role', 'img');
    const max = Math.max(0, ...values);
    const min = values.length ? Math.min(...values) : 0;
    const label = values.length === 0 ? 'no data yet'
      : 'events per second of ' + operator + ' over the last ' + values.length + ' updates: from '
        + formatRate(min) + ' to ' + formatRate(max) + ', now ' + formatRate(values[values.length - 1]);
    svg.setAttribute('aria-label', label);
    const title = document.createElementNS(SVG_NS, 'title');
    title.textContent = label;
    svg.appendChild(title);

    const baseline = document.createElementNS(SVG_NS, 'line');
    baseline.setAttribute('x1', '0');
    baseline.setAttribute('x2', String(width));
    baseline.setAttribute('y1', String(height - 0.5));
    baseline.setAttribute('y2', String(height - 0.5));
    svg.appendChild(baseline);

    if (values.length > 0) {
      const step = width / (HISTORY_LENGTH - 1);
      const offset = HISTORY_LENGTH - values.length; // newest value at the right edge
      const scale = max > 0 ? (height - 2) / max : 0;
      const points = values.map((value, i) =>
        ((offset + i) * step).toFixed(1) + ',' + (height - 1 - value * scale).toFixed(1));
      if (points.length === 1) {
        points.unshift((width - step).toFixed(1) + ',' + points[0].split(',')[1]);
      }
      const line = document.createElementNS(SVG_NS, 'polyline');
      line.setAttribute('points', points.join(' '));
      svg.appendChild(line);
    }
    return svg;
  }

  // ---- banner and staleness ----------------------------------------------

  function showBanner(title, text) {
    const banner = byId('banner');
    banner.replaceChildren(el('strong', {}, title), document.createTextNode(text));
    banner.hidden = false;
  }

  function hideBanner() {
    byId('banner').hidden = true;
  }

  // No update for a while means the backend, not the router, is gone: say so instead of showing old numbers as live.
  setInterval(() => {
    if (lastUpdateAt && Date.now() - lastUpdateAt > STALE_AFTER_MS) {
      const seconds = Math.round((Date.now() - lastUpdateAt) / 1000);
      byId('router-state').textContent = 'no update for ' + seconds + ' s';
      byId('router-state').className = 'badge badge-warn';
    }
  }, 1000);

  // ---- helpers -------------------------------------------------------------

  const STATUS_CLASSES = {
    LIVE: 'badge-ok', RUNNING: 'badge-ok', UP: 'badge-ok',
    FINISHED: 'badge-info',
    PENDING: 'badge-neutral', CREATED: 'badge-neutral', STARTING: 'badge-neutral',
    DEAD: 'badge-bad', FAILED: 'badge-bad', DOWN: 'badge-bad', UNREGISTERED: 'badge-warn',
    CANCELLED: 'badge-warn',
  };

  function badge(status) {
    const text = status || 'UNKNOWN';
    return el('span', { className: 'badge ' + (STATUS_CLASSES[text] || 'badge-neutral') }, text);
  }

  /** Creates an element; text children are set as text, never parsed as HTML. */
  function el(tag, props, children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(props || {})) {
      if (name in node && !name.includes('-')) {
        node[name] = value;
      } else {
        node.setAttribute(name, value);
      }
    }
    if (typeof children === 'string') {
      node.textContent = children;
    } else if (children) {
      node.append(...children);
    }
    return node;
  }

  function byId(id) {
    return document.getElementById(id);
  }

  function cssId(text) {
    return String(text).replace(/[^A-Za-z0-9_-]/g, '_');
  }

  function ageText(instant, now) {
    if (!instant) {
      return 'never';
    }
    const seconds = (Date.parse(now) - Date.parse(instant)) / 1000;
    if (!isFinite(seconds)) {
      return instant;
    }
    if (seconds < 0) {
      return 'just now';
    }
    if (seconds < 60) {
      return seconds.toFixed(1) + ' s ago';
    }
    if (seconds < 3600) {
      return Math.floor(seconds / 60) + ' min ago';
    }
    return Math.floor(seconds / 3600) + ' h ago';
  }

  function formatTime(instant) {
    const date = new Date(instant);
    return isNaN(date) ? String(instant) : date.toLocaleTimeString();
  }

  const rateFormat = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 });
  const countFormat = new Intl.NumberFormat();

  function formatRate(value) {
    return rateFormat.format(Number(value) || 0);
  }

  function formatCount(value) {
    return countFormat.format(Number(value) || 0);
  }

  connect();
})();
