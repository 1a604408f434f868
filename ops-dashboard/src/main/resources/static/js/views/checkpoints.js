// #/topologies/{id}/checkpoints (and #/checkpoints, which shows the first topology and offers the others):
// how checkpointing stands, a chart of duration and size over checkpoint id, and the history table. A click on a
// checkpoint's row (or Enter on it) opens its tasks' acks in a row beneath: hooks tr[data-checkpoint-task] with
// td[data-field=acked] reading yes or missing.
import { api, ApiError } from '../api.js';
import { badge, cells, el, emptyRow, setAttr, setText, syncRows, table, updateBadge } from '../dom.js';
import {
  ageElement, clockTime, exactTime, formatBytes, formatCount, formatDuration, shortTaskId, updateAge,
} from '../format.js';
import { AXIS_STYLE, createChart } from '../charts.js';

const COLUMNS = 7;
const TASK_COLUMNS = 8;
/** The status of an opened checkpoint that the store no longer keeps. */
const GONE = 'GONE';

export function mount(container, params, ctx) {
  let id = params[0];
  const picker = el('select', { id: 'checkpoint-topology', 'aria-label': 'Topology' });
  const title = el('h1', {}, 'Checkpoints');
  const stateLine = el('dl', { className: 'facts' });
  const chartBox = el('div', { id: 'checkpoint-chart', className: 'chart', role: 'img',
    'aria-label': 'Checkpoint duration and size by checkpoint id' });
  const { table: tableNode, tbody } = table([
    { text: 'Checkpoint', num: true }, 'Status', 'Triggered', 'Completed',
    { text: 'Duration', num: true, title: 'trigger to completion' }, { text: 'Size', num: true }, 'Failure',
  ], 'checkpoints');
  emptyRow(tbody, COLUMNS, 'Loading…');
  const opened = new Map(); // checkpoint id (string) -> its detail row: {key, row, summary, tbody, status, loading}
  container.append(
    el('div', { className: 'view-header' }, [title, el('div', { className: 'actions' }, [
      el('label', { htmlFor: 'checkpoint-topology' }, 'Topology '), picker,
    ])]),
    stateLine,
    el('section', { className: 'card', 'aria-labelledby': 'cp-chart-heading' }, [
      el('h2', { id: 'cp-chart-heading' }, 'Duration and size'), chartBox,
    ]),
    el('section', { className: 'card table-card', 'aria-labelledby': 'cp-table-heading' }, [
      el('h2', { id: 'cp-table-heading' }, 'History (newest first)'), tableNode,
    ]),
  );
  tbody.addEventListener('click', (event) => {
    const row = event.target.closest('tr[data-checkpoint]');
    if (row && tbody.contains(row)) {
      toggle(row);
    }
  });
  tbody.addEventListener('keydown', (event) => {
    const row = event.target;
    if ((event.key === 'Enter' || event.key === ' ') && row.matches && row.matches('tr[data-checkpoint]')) {
      event.preventDefault();
      toggle(row);
    }
  });
  picker.addEventListener('change', () => {
    if (picker.value) {
      ctx.navigate('#/topologies/' + encodeURIComponent(picker.value) + '/checkpoints');
    }
  });

  const chart = createChart(chartBox, {
    grid: { left: 64, right: 72, top: 36, bottom: 40 },
    legend: { top: 0, data: ['Duration', 'Size'] },
    tooltip: { trigger: 'axis' },
    xAxis: { ...AXIS_STYLE, type: 'category', name: 'checkpoint', nameLocation: 'middle', nameGap: 26, data: [] },
    yAxis: [
      { ...AXIS_STYLE, type: 'value', name: 'duration',
        axisLabel: { ...AXIS_STYLE.axisLabel, formatter: (v) => formatDuration(v) } },
      { ...AXIS_STYLE, type: 'value', name: 'size', splitLine: { show: false },
        axisLabel: { ...AXIS_STYLE.axisLabel, formatter: (v) => formatBytes(v) } },
    ],
    series: [
      { name: 'Duration', type: 'line', yAxisIndex: 0, data: [], connectNulls: false, showSymbol: true,
        tooltip: { valueFormatter: (v) => formatDuration(v) } },
      { name: 'Size', type: 'line', yAxisIndex: 1, data: [], showSymbol: true,
        tooltip: { valueFormatter: (v) => formatBytes(v) } },
    ],
  });

  return {
    async refresh() {
      const list = await api.topologies();
      renderPicker(list);
      if (!id) {
        if (list.length === 0) {
          setText(title, 'Checkpoints');
          stateLine.replaceChildren();
          opened.clear();
          emptyRow(tbody, COLUMNS, 'No topology is deployed, so there are no checkpoints to show.');
          chart.set({ xAxis: { data: [] }, series: [{ data: [] }, { data: [] }] });
          ctx.ready();
          return;
        }
        id = list[0].id;
        picker.value = id;
      }
      title.replaceChildren('Checkpoints of ', el('span', { className: 'mono' }, id));
      const data = await api.checkpoints(id);
      renderState(data);
      renderTable(data.checkpoints || []);
      renderChart(data.checkpoints || []);
      await refreshOpened(data.checkpoints || []);
      ctx.ready();
    },
    dispose() {
      chart.dispose();
    },
  };

  function renderPicker(list) {
    const ids = list.map((topology) => topology.id);
    if (id && !ids.includes(id)) {
      ids.unshift(id);
    }
    const current = Array.from(picker.options, (option) => option.value).join('\n');
    if (current !== ids.join('\n')) {
      picker.replaceChildren(...ids.map((value) => el('option', { value }, value)));
    }
    picker.value = id || ids[0] || '';
  }

  function renderState(data) {
    const c = data.checkpointing;
    stateLine.replaceChildren(...[
      fact('Checkpointing', c ? [badge(c.state), c.reason ? ' ' + c.reason : ''] : 'not checkpointed (cancelled?)'),
      c ? fact('Every', formatDuration(c.intervalMs) + ', timeout ' + formatDuration(c.timeoutMs)) : null,
      fact('Latest completed', data.latestCompleted === null || data.latestCompleted === undefined
        ? 'none yet' : '#' + data.latestCompleted),
      c ? fact('Skipped', formatCount(c.skipped)) : null,
      c && c.unrecordedFailures ? fact('Failures not yet in the store', formatCount(c.unrecordedFailures)) : null,
    ].filter(Boolean));
  }

  function renderTable(checkpoints) {
    if (checkpoints.length === 0) {
      opened.clear();
      emptyRow(tbody, COLUMNS, 'No checkpoint yet: the first is taken one interval after the topology starts.');
      return;
    }
    // the open detail rows step aside while the history rows are synced, then go back beneath their checkpoints
    opened.forEach((entry) => entry.row.remove());
    syncRows(tbody, checkpoints, (cp) => cp.checkpointId, createRow, updateRow);
    for (const [key, entry] of opened) {
      const row = tbody._rowsByKey && tbody._rowsByKey.get(key);
      if (row) {
        row.after(entry.row);
      } else {
        opened.delete(key); // the store dropped the checkpoint: its acks are gone too
      }
    }
  }

  function toggle(row) {
    const key = row.dataset.checkpoint;
    const entry = opened.get(key);
    if (entry) {
      entry.row.remove();
      opened.delete(key);
      row.setAttribute('aria-expanded', 'false');
      return;
    }
    const created = createDetail(key);
    opened.set(key, created);
    row.after(created.row);
    row.setAttribute('aria-expanded', 'true');
    loadDetail(created);
  }

  /** Re-reads the open checkpoints whose acks may have changed: pending ones, and those whose status moved on. */
  function refreshOpened(checkpoints) {
    const statusOf = new Map(checkpoints.map((cp) => [String(cp.checkpointId), cp.status]));
    return Promise.all(Array.from(opened.values())
      .filter((entry) => !entry.loading && entry.status !== GONE
        && (entry.status === 'PENDING' || entry.status !== statusOf.get(entry.key)))
      .map(loadDetail));
  }

  async function loadDetail(entry) {
    entry.loading = true;
    try {
      const detail = await api.checkpoint(id, entry.key);
      if (opened.get(entry.key) === entry) {
        renderDetail(entry, detail);
      }
    } catch (error) {
      entry.status = null;
      if (error instanceof ApiError && error.status === 404) {
        entry.status = GONE; // not asked again: the store will not have it back
        emptyRow(entry.tbody, TASK_COLUMNS, 'The checkpoint store no longer keeps checkpoint #' + entry.key
          + ' (it keeps the latest few), so its acks cannot be shown.');
      } else {
        emptyRow(entry.tbody, TASK_COLUMNS, 'Could not read the acks of checkpoint #' + entry.key + ': '
          + error.message + (error.hint ? ' Check: ' + error.hint : ''));
      }
      setText(entry.summary, '');
    } finally {
      entry.loading = false;
    }
  }

  function renderChart(checkpoints) {
    const ordered = checkpoints.slice().sort((a, b) => a.checkpointId - b.checkpointId);
    chart.set({
      xAxis: { data: ordered.map((cp) => String(cp.checkpointId)) },
      series: [
        { data: ordered.map((cp) => (cp.durationMillis === null || cp.durationMillis === undefined ? null : cp.durationMillis)) },
        // a checkpoint's size is known once it completed: a pending or failed one is a gap, not 0 B
        { data: ordered.map((cp) => (cp.status === 'COMPLETED' ? cp.sizeBytes : null)) },
      ],
    });
  }
}

/** The row beneath an opened checkpoint: a line of totals and a table with a row per task. */
function createDetail(key) {
  const summary = el('p', { className: 'acks-summary', dataset: { field: 'acks-summary' } });
  const { table: tasksTable, tbody } = table([
    'Task', 'Host', { text: 'Acked', title: 'yes once the task\'s snapshot is stored; missing until then' },
    'Acked at', { text: 'After trigger', num: true, title: 'from the trigger to the ack' },
    { text: 'Sync', num: true, title: 'the synchronous part of the snapshot, on the task\'s thread' },
    { text: 'Async', num: true, title: 'the asynchronous part, until the snapshot was stored' },
    { text: 'Size', num: true },
  ], 'checkpoint-acks');
  emptyRow(tbody, TASK_COLUMNS, 'Loading the acks of checkpoint #' + key + '…');
  const row = el('tr', { className: 'checkpoint-detail', dataset: { checkpointDetail: key } }, [
    el('td', { colSpan: COLUMNS }, [summary, tasksTable]),
  ]);
  return { key, row, summary, tbody, status: null, loading: false };
}

function renderDetail(entry, detail) {
  entry.status = detail.status;
  const tasks = detail.tasks || [];
  const missing = detail.missingTasks || [];
  const acked = tasks.filter((task) => task.acked).length;
  setText(entry.summary, 'Checkpoint #' + detail.checkpointId + ' (' + detail.status + '): ' + acked + ' of '
    + tasks.length + ' tasks acknowledged' + (missing.length === 0 ? ''
    : '; missing' + (detail.status === 'PENDING' ? ' so far' : '') + ': ' + missing.map(shortTaskId).join(', ')));
  entry.summary.classList.toggle('bad', missing.length > 0 && detail.status !== 'PENDING');
  if (tasks.length === 0) {
    emptyRow(entry.tbody, TASK_COLUMNS, 'The checkpoint store names no task of checkpoint #' + entry.key + '.');
    return;
  }
  syncRows(entry.tbody, tasks, (task) => task.task, createTaskRow,
    (row, task) => updateTaskRow(row, task, detail.triggeredAt));
}

function createTaskRow(task) {
  return el('tr', { dataset: { checkpointTask: task.task } }, [
    el('td', { className: 'mono', dataset: { field: 'task' }, title: task.task }, shortTaskId(task.task)),
    el('td', { className: 'mono', dataset: { field: 'host' } }),
    el('td', { dataset: { field: 'acked' } }),
    el('td', { dataset: { field: 'acked-at' } }),
    el('td', { className: 'num', dataset: { field: 'after-trigger' } }),
    el('td', { className: 'num', dataset: { field: 'sync' } }),
    el('td', { className: 'num', dataset: { field: 'async' } }),
    el('td', { className: 'num', dataset: { field: 'size' } }),
  ]);
}

function updateTaskRow(row, task, triggeredAt) {
  const c = cells(row);
  setText(c.host, task.host || '–');
  setAttr(c.host, 'title', task.host ? 'the host the router places the task on now' : 'placed on no host now');
  setText(c.acked, task.acked ? 'yes' : 'missing');
  c.acked.className = task.acked ? 'ack-yes' : 'ack-missing';
  // a pending checkpoint's acks are held by the router, ackedAt null, until the store records them at completion
  const recorded = task.acked && task.ackedAt;
  setText(c['acked-at'], recorded ? clockTime(task.ackedAt) : task.acked ? 'not recorded yet' : '–');
  setAttr(c['acked-at'], 'title', recorded ? exactTime(task.ackedAt) : task.acked
    ? 'the router took the ack; the checkpoint store records it when the checkpoint completes' : null);
  const after = recorded ? Date.parse(task.ackedAt) - Date.parse(triggeredAt) : NaN;
  setText(c['after-trigger'], isFinite(after) ? formatDuration(Math.max(0, after)) : '–');
  setText(c.sync, task.acked ? formatDuration(task.syncMillis) : '–');
  setText(c.async, task.acked ? formatDuration(task.asyncMillis) : '–');
  setText(c.size, task.acked ? formatBytes(task.sizeBytes) : '–');
  setAttr(c.size, 'title', task.acked ? formatCount(task.sizeBytes) + ' bytes' : null);
  row.classList.toggle('row-bad', !task.acked);
}

function createRow(cp) {
  return el('tr', {
    className: 'expandable', tabIndex: 0, 'aria-expanded': 'false', dataset: { checkpoint: String(cp.checkpointId) },
    title: 'Click (or press Enter) to show each task\'s ack',
  }, [
    el('td', { className: 'num mono' }, [
      el('span', { className: 'expander', 'aria-hidden': 'true' }), '#' + cp.checkpointId,
    ]),
    el('td', { dataset: { field: 'status' } }, badge('')),
    el('td', { dataset: { field: 'triggered' } }, ageElement(null)),
    el('td', { dataset: { field: 'completed' } }),
    el('td', { className: 'num', dataset: { field: 'duration' } }),
    el('td', { className: 'num', dataset: { field: 'size' } }),
    el('td', { dataset: { field: 'failure' } }),
  ]);
}

function updateRow(row, cp) {
  const c = cells(row);
  updateBadge(c.status.firstChild, cp.status);
  updateAge(c.triggered.firstChild, cp.triggeredAt);
  if (cp.completedAt) {
    const age = c.completed.querySelector('time.age') || c.completed.appendChild(ageElement(null));
    updateAge(age, cp.completedAt);
  } else {
    setText(c.completed, cp.status === 'PENDING' ? 'pending…' : '–');
  }
  setText(c.duration, formatDuration(cp.durationMillis));
  setText(c.size, formatBytes(cp.sizeBytes));
  setAttr(c.size, 'title', formatCount(cp.sizeBytes) + ' bytes');
  setText(c.failure, cp.failureReason ? cp.failureReason + (cp.failureMessage ? ': ' + cp.failureMessage : '') : '');
  row.classList.toggle('row-bad', cp.status === 'FAILED');
}

function fact(label, value) {
  return el('div', {}, [el('dt', {}, label), el('dd', {}, value)]);
}
