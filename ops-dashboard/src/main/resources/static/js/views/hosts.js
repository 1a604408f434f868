// #/hosts: active, standby and voter hosts with status, heartbeat age, tasks and data-plane counters; a Kill
// button per host when the dashboard allows fault injection (settings.faultInjection), behind a confirmation.
import { api } from '../api.js';
import { clearProblem, showError } from '../banner.js';
import { confirmAction } from '../confirm.js';
import { badge, cells, el, emptyRow, setAttr, setText, syncRows, table, updateBadge } from '../dom.js';
import { ageElement, formatCount, formatDuration, formatRate, shortTaskId, updateAge } from '../format.js';

const ROLE_ORDER = { active: 0, standby: 1, voter: 2 };

export function mount(container, params, ctx) {
  let faultInjection = false;
  const killResult = el('p', { id: 'kill-result', className: 'kill-result', 'aria-live': 'polite' });
  const note = el('p', { className: 'muted small' });
  const { table: tableNode, tbody } = table([
    'Host', 'Role', 'Status', 'Last heartbeat', { text: 'Tasks', num: true },
    { text: 'In/s', num: true, title: 'events per second its tasks took in' },
    { text: 'Out/s', num: true, title: 'events per second its tasks emitted' },
    { text: 'Queued', num: true, title: 'input frames waiting in its tasks\' mailboxes: backpressure' },
    { text: 'Malformed', num: true, title: 'data-plane frames its tasks could not decode' },
    { text: 'Backpressured', num: true, title: 'time its tasks waited on full downstream queues' },
    'Actions',
  ], 'hosts');
  emptyRow(tbody, 11, 'Loading…');
  container.append(
    el('div', { className: 'view-header' }, [el('h1', {}, 'Hosts')]),
    note, killResult,
    el('section', { className: 'card table-card', 'aria-label': 'Hosts' }, [tableNode]),
  );

  /** hostId -> host, merged from the router's /hosts (with task metrics) and the live overview */
  const hosts = new Map();
  let loaded = false;

  function render() {
    const list = Array.from(hosts.values()).sort((a, b) =>
      ROLE_ORDER[roleOf(a)] - ROLE_ORDER[roleOf(b)] || String(a.hostId).localeCompare(String(b.hostId), 'en', { numeric: true }));
    if (list.length === 0) {
      emptyRow(tbody, 11, 'No host has registered with the router.');
      return;
    }
    syncRows(tbody, list, (host) => host.hostId, createRow, updateRow);
  }

  async function kill(hostId) {
    const host = hosts.get(hostId);
    const taskCount = host ? (host.tasks || []).length : 0;
    const yes = await confirmAction({
      title: 'Kill host ' + hostId + '?',
      text: hostId + ' halts at once, as if it crashed; its ' + taskCount + ' tasks stop. The router declares it DEAD '
        + 'after its heartbeat timeout and recovers the tasks it ran. Use this to test recovery, not in production.',
      yes: 'Kill ' + hostId,
    });
    if (!yes) {
      return;
    }
    try {
      const { data } = await api.killHost(hostId);
      clearProblem('action');
      killResult.className = 'kill-result tone-ok';
      killResult.textContent = 'Asked ' + hostId + ' (' + ((data && data.controlUrl) || 'its control URL')
        + ') to halt. Watch its status turn DEAD here, then the recovery under Recoveries.';
    } catch (error) {
      killResult.className = 'kill-result tone-bad';
      killResult.textContent = 'Killing ' + hostId + ' failed: ' + error.message;
      showError('action', 'Killing ' + hostId + ' failed.', error);
    }
  }

  function killButton(id) {
    return el('button', { type: 'button', className: 'kill-host danger small', dataset: { host: id },
      onclick: () => kill(id) }, 'Kill…');
  }

  function createRow(host) {
    const id = host.hostId;
    return el('tr', { dataset: { host: id } }, [
      el('td', { className: 'mono', dataset: { field: 'host' } }, id),
      el('td', { dataset: { field: 'role' } }),
      el('td', { dataset: { field: 'status' } }, badge('')),
      el('td', { dataset: { field: 'heartbeat' } }, ageElement(null)),
      el('td', { className: 'num', dataset: { field: 'tasks' } }),
      el('td', { className: 'num', dataset: { field: 'in-rate' } }),
      el('td', { className: 'num', dataset: { field: 'out-rate' } }),
      el('td', { className: 'num', dataset: { field: 'queued' } }),
      el('td', { className: 'num', dataset: { field: 'malformed' } }),
      el('td', { className: 'num', dataset: { field: 'backpressured' } }),
      el('td', { dataset: { field: 'actions' } }, faultInjection ? killButton(id) : null),
    ]);
  }

  function updateRow(row, host) {
    const c = cells(row);
    const role = roleOf(host);
    setText(c.role, role);
    setAttr(c.role, 'title', role === 'voter' ? 'a voter-service: runs the vote tasks of N-version operators'
      : role === 'standby' ? 'a PE host without tasks, kept free for recoveries' : 'a PE host running tasks');
    updateBadge(c.status.firstChild, host.status);
    updateAge(c.heartbeat.firstChild, host.lastHeartbeat);
    const tasks = host.tasks || [];
    setText(c.tasks, String(tasks.length));
    setAttr(c.tasks, 'title', tasks.map((task) => shortTaskId(task.task) + ' ' + (task.status || '')).join('\n') || null);
    const sum = (field) => tasks.reduce((total, task) => total + (Number(task[field]) || 0), 0);
    const metrics = tasks.some((task) => task.recordsInPerSecond !== undefined);
    // The rates and queues of a host that stopped heartbeating are its last report's, not what it does now.
    const current = metrics && host.status === 'LIVE';
    const stale = metrics && !current ? host.hostId + ' is ' + host.status + ': its last report is not current' : null;
    setText(c['in-rate'], current ? formatRate(sum('recordsInPerSecond')) : '–');
    setText(c['out-rate'], current ? formatRate(sum('recordsOutPerSecond')) : '–');
    setText(c.queued, current ? formatCount(sum('queuedFrames')) : '–');
    for (const field of ['in-rate', 'out-rate', 'queued']) {
      setAttr(c[field], 'title', stale);
    }
    setText(c.malformed, metrics ? formatCount(sum('malformedFrames')) : '–');
    setText(c.backpressured, metrics ? formatDuration(sum('backpressuredMillis')) : '–');
    setAttr(c.host, 'title', (host.controlUrl ? 'control URL ' + host.controlUrl : '')
      + (host.dataEndpoint ? ', data plane ' + host.dataEndpoint : ''));
    const button = c.actions.querySelector('button.kill-host');
    if (faultInjection && !button) {
      c.actions.append(killButton(host.hostId));
    } else if (!faultInjection && button) {
      button.remove();
    }
    const killControl = c.actions.querySelector('button.kill-host');
    if (killControl) {
      killControl.disabled = host.status !== 'LIVE';
      setAttr(killControl, 'title', host.status !== 'LIVE' ? hostIdText(host) + ' is not LIVE' : 'Halt ' + hostIdText(host));
      setAttr(killControl, 'aria-label', 'Kill host ' + hostIdText(host));
    }
    row.classList.toggle('row-bad', host.status !== 'LIVE');
  }

  return {
    async refresh() {
      const [settings, list] = await Promise.all([ctx.settings(), api.hosts()]);
      faultInjection = Boolean(settings.faultInjection);
      setText(note, faultInjection
        ? 'Fault injection is on: each LIVE host has a Kill button.'
        : 'Kill buttons are off: the dashboard runs with steadfast.dashboard.fault-injection.enabled=false.');
      hosts.clear();
      list.forEach((host) => hosts.set(host.hostId, host));
      loaded = true;
      // Statuses come from the live overview the header shows too, so that the two never disagree.
      takeStatusesFrom(ctx.overview());
      render();
      ctx.ready();
    },
    onOverview(overview) {
      if (!loaded || !overview.routerReachable) {
        return;
      }
      takeStatusesFrom(overview);
      render();
    },
  };

  function takeStatusesFrom(overview) {
    if (!overview || !overview.routerReachable) {
      return;
    }
    for (const host of overview.hosts || []) {
      const known = hosts.get(host.hostId);
      // The overview's task entries carry no metrics: keep those of /hosts, take status and heartbeat.
      hosts.set(host.hostId, known
        ? { ...known, status: host.status, lastHeartbeat: host.lastHeartbeat, kind: host.kind }
        : host);
    }
  }
}

function roleOf(host) {
  if (host.kind === 'VOTER') {
    return 'voter';
  }
  return (host.tasks || []).length > 0 ? 'active' : 'standby';
}

function hostIdText(host) {
  return String(host.hostId);
}
