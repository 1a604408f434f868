// #/topologies/{id}/checkpoints (and #/checkpoints, which shows the first topology and offers the others):
// how checkpointing stands, a chart of duration and size over checkpoint id, and the history table.
import { api } from '../api.js';
import { badge, cells, el, emptyRow, setAttr, setText, syncRows, table, updateBadge } from '../dom.js';
import { ageElement, formatBytes, formatCount, formatDuration, updateAge } from '../format.js';
import { AXIS_STYLE, createChart } from '../charts.js';

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
  emptyRow(tbody, 7, 'Loading…');
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
          emptyRow(tbody, 7, 'No topology is deployed, so there are no checkpoints to show.');
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
      emptyRow(tbody, 7, 'No checkpoint yet: the first is taken one interval after the topology starts.');
      return;
    }
    syncRows(tbody, checkpoints, (cp) => cp.checkpointId, createRow, updateRow);
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

function createRow(cp) {
  return el('tr', { dataset: { checkpoint: String(cp.checkpointId) } }, [
    el('td', { className: 'num mono' }, '#' + cp.checkpointId),
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
