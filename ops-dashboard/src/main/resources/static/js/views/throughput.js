// #/throughput: events/s of every operator over the last minutes, from the live overview feed (recorded since
// the page was opened), as a chart and as a table of now / min / max.
import { cells, el, emptyRow, setAttr, setText, syncRows, table } from '../dom.js';
import { AXIS_STYLE, createChart } from '../charts.js';
import { formatRate, formatEventsPerSecond, clockTime } from '../format.js';
import { HISTORY_MINUTES, throughputSeries } from '../throughput-history.js';

export function mount(container, params, ctx) {
  const chartBox = el('div', { id: 'throughput-chart', className: 'chart chart-tall', role: 'img',
    'aria-label': 'Events per second of each operator over the last ' + HISTORY_MINUTES + ' minutes' });
  const { table: tableNode, tbody } = table([
    'Topology / operator', { text: 'Now (events/s)', num: true }, { text: 'Min', num: true }, { text: 'Max', num: true },
    { text: 'Mean', num: true }, 'Since',
  ], 'throughput');
  emptyRow(tbody, 6, 'Waiting for the first update from the live feed…');
  container.append(
    el('div', { className: 'view-header' }, [el('h1', {}, 'Throughput')]),
    el('p', { className: 'muted small' }, 'Events each operator emitted per second (taken in, for sinks), as the '
      + 'router measured between heartbeats; the last ' + HISTORY_MINUTES + ' minutes since this page was opened.'),
    el('section', { className: 'card' }, [chartBox]),
    el('section', { className: 'card table-card' }, [tableNode]),
  );
  const chart = createChart(chartBox, {
    grid: { left: 70, right: 24, top: 36, bottom: 84 },
    legend: { type: 'scroll', bottom: 0 },
    tooltip: { trigger: 'axis', valueFormatter: (v) => formatEventsPerSecond(v) },
    xAxis: { ...AXIS_STYLE, type: 'time' },
    yAxis: { ...AXIS_STYLE, type: 'value', name: 'events/s',
      axisLabel: { ...AXIS_STYLE.axisLabel, formatter: (v) => formatRate(v) } },
    series: [],
  });
  let seriesKeys = '';

  function render() {
    const series = throughputSeries();
    const keys = Array.from(series.keys()).sort();
    if (keys.length === 0) {
      return false;
    }
    const chartSeries = keys.map((key) => ({
      name: key, type: 'line', showSymbol: false, sampling: 'lttb', data: series.get(key),
    }));
    chart.set({ series: chartSeries }, keys.join('\n') !== seriesKeys);
    seriesKeys = keys.join('\n');
    syncRows(tbody, keys, (key) => key, createRow, (row, key) => updateRow(row, key, series.get(key)));
    return true;
  }

  if (render()) {
    ctx.ready();
  }
  return {
    onOverview(overview) {
      if (!render()) {
        emptyRow(tbody, 6, overview.routerReachable ? 'No operator is running: deploy a topology to see its rates.'
          : 'No data: the router is unreachable.');
      }
      ctx.ready();
    },
    dispose() {
      chart.dispose();
    },
  };
}

function createRow(key) {
  return el('tr', {}, [
    el('td', { className: 'mono' }, key),
    el('td', { className: 'num', dataset: { field: 'now' } }),
    el('td', { className: 'num', dataset: { field: 'min' } }),
    el('td', { className: 'num', dataset: { field: 'max' } }),
    el('td', { className: 'num', dataset: { field: 'mean' } }),
    el('td', { dataset: { field: 'since' } }),
  ]);
}

function updateRow(row, key, points) {
  const c = cells(row);
  const values = points.map((point) => point[1]);
  const last = values[values.length - 1];
  setText(c.now, formatRate(last));
  setAttr(c.now, 'data-value', last);
  setText(c.min, formatRate(Math.min(...values)));
  setText(c.max, formatRate(Math.max(...values)));
  setText(c.mean, formatRate(values.reduce((a, b) => a + b, 0) / values.length));
  setText(c.since, clockTime(points[0][0]));
}
