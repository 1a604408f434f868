// #/topologies/{id}: the operator graph (drawn by dag-view.js), its tasks grouped by operator with host, status,
// rates, latency, busy share, queued frames (backpressure) and catch-up, and Cancel. Operator rates and task states
// follow the live overview; the rest is re-read from the router every 2 s.
import { api, ApiError } from '../api.js';
import { confirmAction } from '../confirm.js';
import { showError, clearProblem } from '../banner.js';
import { badge, cells, el, emptyRow, setAttr, setText, syncRows, table, toneOf, updateBadge } from '../dom.js';
import {
  ageElement, formatBytes, formatCount, formatDuration, formatEventsPerSecond, formatLatency, formatRate,
  operatorOfTask, shortTaskId,
} from '../format.js';
import { graphFromPlan, graphFromSpec, graphSignature } from '../topology-graph.js';
import { createDagView } from '../dag-view.js';

const COLUMNS = 14;

export function mount(container, params, ctx) {
  const id = params[0];
  const enc = encodeURIComponent(id);
  const statusBadge = badge('…');
  statusBadge.id = 'topology-status';
  const cancelButton = el('button', { id: 'cancel-topology', className: 'danger', type: 'button' }, 'Cancel topology…');
  const meta = el('dl', { className: 'facts' });
  const warnings = el('ul', { className: 'warnings', hidden: true });
  const notFound = el('div', { className: 'card notice', hidden: true });
  const dag = createDagView({ onSelect: selectOperator });
  const operatorPanel = el('div', { className: 'operator-panel muted', 'aria-live': 'polite' },
    'Select an operator in the graph to see its totals and jump to its tasks.');
  const { table: taskTable, tbody } = table([
    'Task', 'Host', 'Host status', 'Status',
    { text: 'In (events/s)', num: true }, { text: 'Out (events/s)', num: true },
    { text: 'Latency', num: true, title: 'mean time a record spent in the task lately, from reaching its host to '
      + 'processed: queueing and processing' },
    { text: 'Output wait', num: true, title: 'mean time the records it sent lately waited in output frames before '
      + 'they left: batching (a linger of up to 20 ms, 1 ms on a busy channel) or a frame filling up' },
    { text: 'Busy', num: true, title: 'share of the time the task\'s thread spent processing: near 100 % it is a '
      + 'bottleneck' },
    { text: 'Queued frames', num: true, title: 'input frames waiting in the task\'s mailbox: backpressure' },
    { text: 'Records in', num: true }, { text: 'Records out', num: true },
    { text: 'Catch-up', title: 'what a recovered task replayed until it caught up (from its host)' },
    'Failure',
  ], 'tasks');
  emptyRow(tbody, COLUMNS, 'Loading…');

  container.append(
    el('div', { className: 'view-header' }, [
      el('h1', {}, ['Topology ', el('span', { className: 'mono' }, id), ' ', statusBadge]),
      el('div', { className: 'actions' }, [
        el('a', { className: 'button', href: '#/topologies/' + enc + '/checkpoints' }, 'Checkpoints'),
        el('a', { className: 'button', href: '#/votes/' + enc }, 'Votes'),
        el('a', { className: 'button', href: '#/recoveries' }, 'Recoveries'),
        cancelButton,
      ]),
    ]),
    notFound,
    meta,
    warnings,
    el('section', { className: 'card dag-card', 'aria-labelledby': 'dag-heading' }, [
      el('h2', { id: 'dag-heading' }, 'Operators'),
      dag.element,
      operatorPanel,
    ]),
    el('section', { className: 'card table-card', 'aria-labelledby': 'tasks-heading' }, [
      el('h2', { id: 'tasks-heading' }, 'Tasks'),
      taskTable,
    ]),
  );

  let detail = null;
  let graph = null;
  let planEpoch = null;
  let selected = null;
  const tasks = new Map(); // task id -> merged task state
  const rates = new Map(); // operator id -> events/s
  const operatorInfo = new Map(); // operator id -> {type, parallelism}
  let catchUps = new Map(); // task id -> catchUp of its host's report

  cancelButton.addEventListener('click', cancel);

  return {
    async refresh() {
      let fresh;
      try {
        fresh = await api.topology(id);
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) {
          showNotFound();
          ctx.ready();
          return;
        }
        throw error;
      }
      notFound.hidden = true;
      cancelButton.disabled = false;
      detail = fresh;
      const [plan, hosts] = await Promise.all([
        planEpoch === detail.epoch ? null : api.plan(id).catch(() => null),
        api.hosts().catch(() => null),
      ]);
      if (plan || graph === null || planEpoch !== detail.epoch) {
        graph = plan ? graphFromPlan(plan) : graphFromSpec(detail.spec);
        planEpoch = plan ? detail.epoch : null; // from the spec: try the plan again next time
        graph.nodes.forEach((node) => operatorInfo.set(node.id, node));
        dag.setGraph(graph, graphSignature(graph));
      }
      if (hosts) {
        catchUps = new Map();
        for (const host of hosts) {
          for (const report of host.tasks || []) {
            if (report.catchUp) {
              catchUps.set(report.task, report.catchUp);
            }
          }
        }
      }
      for (const task of detail.tasks) {
        tasks.set(task.task, { ...tasks.get(task.task), ...task });
      }
      for (const key of Array.from(tasks.keys())) {
        if (!detail.tasks.some((task) => task.task === key)) {
          tasks.delete(key);
        }
      }
      detail.operators.forEach((rate) => rates.set(rate.operator, rate.eventsPerSecond));
      renderFacts();
      renderAll();
      ctx.ready();
    },
    onOverview(overview) {
      if (!detail) {
        return;
      }
      const topology = (overview.topologies || []).find((t) => t.id === id);
      if (!topology || topology.error) {
        return;
      }
      for (const task of topology.tasks || []) {
        const known = tasks.get(task.task);
        if (known) {
          Object.assign(known, task);
        }
      }
      (topology.operators || []).forEach((rate) => rates.set(rate.operator, rate.eventsPerSecond));
      updateBadge(statusBadge, topology.status);
      renderAll();
    },
    dispose() {
      dag.dispose();
    },
  };

  function showNotFound() {
    detail = null;
    updateBadge(statusBadge, 'NOT DEPLOYED');
    cancelButton.disabled = true;
    notFound.hidden = false;
    notFound.replaceChildren(el('p', {}, ['The router has no topology ', el('strong', {}, id),
      ' (HTTP 404): it was cancelled or never deployed. ', el('a', { href: '#/topologies' }, 'See the topology list'),
      ' or ', el('a', { href: '#/deploy' }, 'deploy it'), '.']));
    emptyRow(tbody, COLUMNS, 'No tasks: the topology is not deployed.');
  }

  function renderFacts() {
    updateBadge(statusBadge, detail.status);
    meta.replaceChildren(
      fact('Epoch', String(detail.epoch), 'its deployment epoch: 0, plus one per global recovery'),
      fact('Deployed', ageElement(detail.deployedAt)),
      fact('Last completed checkpoint', detail.lastCompletedCheckpoint === null
        || detail.lastCompletedCheckpoint === undefined ? 'none yet' : '#' + detail.lastCompletedCheckpoint),
      fact('Recoveries', formatCount(detail.recoveries)),
      fact('Tasks', String(detail.tasks.length)),
    );
    warnings.hidden = !detail.warnings || detail.warnings.length === 0;
    warnings.replaceChildren(...(detail.warnings || []).map((text) => el('li', {}, 'Placement: ' + text)));
  }

  function renderAll() {
    const byOperator = groupTasks();
    dag.update((operator) => nodeState(operator, byOperator.get(operator) || []));
    const rows = [];
    for (const [operator, operatorTasks] of byOperator) {
      rows.push({ key: 'op:' + operator, group: operator, tasks: operatorTasks });
      operatorTasks.forEach((task) => rows.push({ key: task.task, task }));
    }
    if (rows.length === 0) {
      emptyRow(tbody, COLUMNS, 'The router lists no task for this topology.');
    } else {
      const maxQueued = Math.max(1, ...Array.from(tasks.values(), (task) => task.queuedFrames || 0));
      syncRows(tbody, rows, (row) => row.key, createRow,
        (row, item) => (item.group ? updateGroupRow(row, item) : updateTaskRow(row, item.task, maxQueued)));
    }
    if (selected) {
      renderOperatorPanel(selected, byOperator.get(selected) || []);
    }
  }

  /** Tasks by operator, operators in graph (plan) order. */
  function groupTasks() {
    const byOperator = new Map();
    if (graph) {
      graph.nodes.forEach((node) => byOperator.set(node.id, []));
    }
    for (const task of tasks.values()) {
      const operator = operatorOfTask(task.task);
      if (!byOperator.has(operator)) {
        byOperator.set(operator, []);
      }
      byOperator.get(operator).push(task);
    }
    return byOperator;
  }

  function nodeState(operator, operatorTasks) {
    const statuses = operatorTasks.map((task) => task.status);
    const failed = operatorTasks.filter((task) => task.status === 'FAILED').length;
    const deadHost = operatorTasks.filter((task) => task.hostStatus && task.hostStatus !== 'LIVE').length;
    const running = statuses.filter((status) => status === 'RUNNING').length;
    const finished = statuses.filter((status) => status === 'FINISHED').length;
    let tone = 'neutral';
    let summary = operatorTasks.length ? running + '/' + operatorTasks.length + ' running' : 'no tasks';
    if (failed) {
      tone = 'bad';
      summary = failed + ' FAILED';
    } else if (deadHost) {
      tone = 'bad';
      summary = deadHost + ' on a DEAD host';
    } else if (operatorTasks.length && finished === operatorTasks.length) {
      tone = 'info';
      summary = 'FINISHED';
    } else if (operatorTasks.length && running === operatorTasks.length) {
      tone = 'ok';
    }
    return { rate: rates.get(operator), tone, summary, selected: operator === selected };
  }

  function selectOperator(operator) {
    selected = selected === operator ? null : operator;
    renderAll();
    for (const row of tbody.querySelectorAll('tr.highlight')) {
      row.classList.remove('highlight');
    }
    if (!selected) {
      operatorPanel.className = 'operator-panel muted';
      operatorPanel.textContent = 'Select an operator in the graph to see its totals and jump to its tasks.';
      return;
    }
    const group = tbody.querySelector('tr[data-group="' + CSS.escape(selected) + '"]');
    for (const row of tbody.querySelectorAll('tr[data-operator-task="' + CSS.escape(selected) + '"]')) {
      row.classList.add('highlight');
    }
    if (group) {
      group.classList.add('highlight');
      group.scrollIntoView({ block: 'nearest' });
    }
  }

  function renderOperatorPanel(operator, operatorTasks) {
    const info = operatorInfo.get(operator) || {};
    const totals = (detail && detail.operators.find((rate) => rate.operator === operator)) || {};
    const hosts = new Set(operatorTasks.map((task) => task.host));
    operatorPanel.className = 'operator-panel';
    operatorPanel.replaceChildren(
      el('h3', {}, ['Operator ', el('span', { className: 'mono' }, operator)]),
      el('dl', { className: 'facts' }, [
        fact('Type', info.type || '?'),
        fact('Parallelism', String(info.parallelism || operatorTasks.length)),
        fact('Events/s', formatEventsPerSecond(rates.get(operator))),
        fact('Records in', formatCount(totals.recordsIn)),
        fact('Records out', formatCount(totals.recordsOut)),
        fact('Latency', formatLatency(totals.latencyMillis)),
        fact('Output wait', formatLatency(totals.outputWaitMillis)),
        fact('Hosts', Array.from(hosts).join(', ') || '–'),
      ]),
      el('p', { className: 'muted' }, 'Its tasks are highlighted in the table below.'),
    );
  }

  async function cancel() {
    const yes = await confirmAction({
      title: 'Cancel topology ' + id + '?',
      text: 'The router stops all ' + tasks.size + ' tasks of ' + id + ' and forgets the topology. '
        + 'Its checkpoints stay in the store. This cannot be undone from this page.',
      yes: 'Cancel ' + id,
    });
    if (!yes) {
      return;
    }
    cancelButton.disabled = true;
    try {
      await api.cancel(id);
      clearProblem('action');
      ctx.navigate('#/topologies');
    } catch (error) {
      cancelButton.disabled = false;
      showError('action', 'Cancelling ' + id + ' failed.', error);
    }
  }

  function createRow(item) {
    if (item.group) {
      return el('tr', { className: 'group-row', dataset: { group: item.group } }, [
        el('th', { colSpan: COLUMNS, scope: 'rowgroup' }, [
          el('span', { className: 'mono', dataset: { field: 'operator' } }, item.group), ' ',
          el('span', { className: 'muted', dataset: { field: 'type' } }), ' ',
          el('span', { className: 'group-rate', dataset: { field: 'rate' } }),
        ]),
      ]);
    }
    const task = item.task;
    const failure = el('details', { className: 'failure', hidden: true }, [
      el('summary', {}, 'why?'), el('pre', { dataset: { field: 'failure-text' } }),
    ]);
    return el('tr', { dataset: { task: task.task, operatorTask: operatorOfTask(task.task) } }, [
      el('td', { className: 'mono', title: task.task }, shortTaskId(task.task)),
      el('td', { className: 'mono', dataset: { field: 'host' } }),
      el('td', { dataset: { field: 'host-status' } }, badge('')),
      el('td', { dataset: { field: 'status' } }, badge('')),
      el('td', { className: 'num', dataset: { field: 'in-rate' } }),
      el('td', { className: 'num', dataset: { field: 'out-rate' } }),
      el('td', { className: 'num', dataset: { field: 'latency' } }),
      el('td', { className: 'num', dataset: { field: 'output-wait' } }),
      el('td', { className: 'num', dataset: { field: 'busy' } }),
      el('td', { className: 'num queued', dataset: { field: 'queued' } }, [
        el('span', { className: 'bar', 'aria-hidden': 'true' }), el('span', { className: 'value' }),
      ]),
      el('td', { className: 'num', dataset: { field: 'records-in' } }),
      el('td', { className: 'num', dataset: { field: 'records-out' } }),
      el('td', { dataset: { field: 'catch-up' } }),
      el('td', { dataset: { field: 'failure' } }, failure),
    ]);
  }

  function updateGroupRow(row, item) {
    const c = cells(row);
    const info = operatorInfo.get(item.group) || {};
    setText(c.type, (info.type || '') + ' × ' + (info.parallelism || item.tasks.length));
    setText(c.rate, formatEventsPerSecond(rates.get(item.group)));
    row.classList.toggle('highlight', item.group === selected);
  }

  function updateTaskRow(row, task, maxQueued) {
    const c = cells(row);
    setText(c.host, task.host);
    const hostStatus = task.hostStatus || 'UNKNOWN';
    updateBadge(c['host-status'].firstChild, hostStatus);
    updateBadge(c.status.firstChild, task.status);
    setRate(c['in-rate'], task.recordsInPerSecond);
    setRate(c['out-rate'], task.recordsOutPerSecond);
    setText(c.latency, formatLatency(task.latencyMillis));
    setAttr(c.latency, 'data-value', task.latencyMillis ?? null);
    setText(c['output-wait'], formatLatency(task.outputWaitMillis));
    setAttr(c['output-wait'], 'data-value', task.outputWaitMillis ?? null);
    setText(c.busy, formatBusy(task.busyFraction));
    const queued = task.queuedFrames;
    setText(c.queued.lastChild, queued === undefined ? '–' : formatCount(queued));
    c.queued.firstChild.style.width = queued ? Math.max(4, Math.round((queued / maxQueued) * 100)) + '%' : '0';
    c.queued.classList.toggle('backpressure', queued > 0);
    setText(c['records-in'], formatCount(task.recordsIn));
    setText(c['records-out'], formatCount(task.recordsOut));
    const catchUp = catchUps.get(task.task);
    setText(c['catch-up'], catchUp ? formatCount(catchUp.records) + ' records, ' + formatBytes(catchUp.bytes)
      + ' in ' + formatDuration(catchUp.millis) : '–');
    const details = c.failure.firstChild;
    details.hidden = !task.failure;
    setText(details.lastChild, task.failure || '');
    row.classList.toggle('row-bad', toneOf(task.status) === 'bad' || toneOf(hostStatus) === 'bad');
    row.classList.toggle('highlight', operatorOfTask(task.task) === selected);
  }
}

/** A share of time: 37 %, '<1 %' for a little above nothing, a dash for none reported. */
function formatBusy(fraction) {
  if (fraction === undefined || fraction === null) {
    return '–';
  }
  const percent = Math.round(fraction * 100);
  return percent === 0 && fraction > 0 ? '<1 %' : percent + ' %';
}

function setRate(cell, value) {
  setText(cell, value === undefined || value === null ? '–' : formatRate(value));
  setAttr(cell, 'data-value', value === undefined || value === null ? null : value);
}

function fact(label, value, title) {
  return el('div', { title }, [el('dt', {}, label), el('dd', {}, value)]);
}
