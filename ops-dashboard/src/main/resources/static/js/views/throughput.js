// #/throughput: events/s and mean latency of every operator over the last minutes, from the live overview feed
// (recorded since the page was opened), as two charts and a table of now / min / max / mean.
import { cells, el, emptyRow, setAttr, setText, syncRows, table } from '../dom.js';
import { AXIS_STYLE, createChart } from '../charts.js';
import { formatRate, formatEventsPerSecond, formatLatency, formatMillis, clockTime } from '../format.js';
import { HISTORY_MINUTES, latencySeries, outputWaitSeries, throughputSeries } from '../operator-history.js';

const COLUMNS = 9;

export function mount(container, params, ctx) {
  const throughputBox = el('div', { id: 'throughput-chart', className: 'chart chart-tall', role: 'img',
    'aria-label': 'Events per second of each operator over the last ' + HISTORY_MINUTES + ' minutes' });
  const latencyBox = el('div', { id: 'latency-chart', className: 'chart chart-tall', role: 'img',
    'aria-label': 'Mean latency of each operator over the last ' + HISTORY_MINUTES + ' minutes' });
  const { table: tableNode, tbody } = table([
    'Topology / operator', { text: 'Now (events/s)', num: true }, { text: 'Min', num: true }, { text: 'Max', num: true },
    { text: 'Mean', num: true },
    { text: 'Latency now', num: true,
      title: 'mean time from a record reaching the operator to its output leaving: queueing, processing, output wait' },
    { text: 'Output wait now', num: true, title: 'the part of it the output waited in frames to leave (batching)' },
    { text: 'Latency max', num: true }, 'Since',
  ], 'throughput');
  emptyRow(tbody, COLUMNS, 'Waiting for the first update from the live feed…');
  container.append(
    el('div', { className: 'view-header' }, [el('h1', {}, 'Throughput and latency')]),
    el('p', { className: 'muted small' }, 'Events each operator emitted per second (taken in, for sinks), as the '
      + 'router measured between heartbeats, and the mean time a record spent in it, from reaching its host until its '
      + 'output left (queueing, barrier alignment, processing, and the wait in output frames; the network is not in '
      + 'it), as its hosts measured; the last ' + HISTORY_MINUTES + ' minutes since this page was opened.'),
    el('section', { className: 'card' }, [el('h2', {}, 'Events per second'), throughputBox]),
    el('section', { className: 'card' }, [el('h2', {}, 'Latency'), latencyBox]),
    el('section', { className: 'card table-card' }, [tableNode]),
  );
  const throughputChart = lineChart(throughputBox, 'events/s', formatEventsPerSecond, formatRate);
  const latencyChart = lineChart(latencyBox, 'ms', formatLatency, formatMillis);
  let seriesKeys = '';

  function render() {
    const throughput = throughputSeries();
    const latency = latencySeries();
    const keys = Array.from(throughput.keys()).sort();
    if (keys.length === 0) {
      return false;
    }
    const replace = keys.join('\n') !== seriesKeys;
    throughputChart.set({ series: lines(keys, throughput) }, replace);
    latencyChart.set({ series: lines(keys, latency) }, replace);
    seriesKeys = keys.join('\n');
    syncRows(tbody, keys, (key) => key, createRow,
      (row, key) => updateRow(row, key, throughput.get(key), latency.get(key) || [],
        outputWaitSeries().get(key) || []));
    return true;
  }

  if (render()) {
    ctx.ready();
  }
  return {
    onOverview(overview) {
      if (!render()) {
        emptyRow(tbody, COLUMNS, overview.routerReachable
          ? 'No operator is running: deploy a topology to see its rates.' : 'No data: the router is unreachable.');
      }
      ctx.ready();
    },
    dispose() {
      throughputChart.dispose();
      latencyChart.dispose();
    },
  };
}

function lineChart(box, unit, tooltipFormat, axisFormat) {
  return createChart(box, {
    grid: { left: 70, right: 24, top: 36, bottom: 84 },
    legend: { type: 'scroll', bottom: 0 },
    tooltip: { trigger: 'axis', valueFormatter: (v) => tooltipFormat(v) },
    xAxis: { ...AXIS_STYLE, type: 'time' },
    yAxis: { ...AXIS_STYLE, type: 'value', name: unit,
      axisLabel: { ...AXIS_STYLE.axisLabel, formatter: (v) => axisFormat(v) } },
    series: [],
  });
}

function lines(keys, series) {
  return keys.map((key) => ({
    name: key, type: 'line', showSymbol: false, sampling: 'lttb', connectNulls: false, data: series.get(key) || [],
  }));
}

function createRow(key) {
  return el('tr', { dataset: { series: key } }, [
    el('td', { className: 'mono' }, key),
    el('td', { className: 'num', dataset: { field: 'now' } }),
    el('td', { className: 'num', dataset: { field: 'min' } }),
    el('td', { className: 'num', dataset: { field: 'max' } }),
    el('td', { className: 'num', dataset: { field: 'mean' } }),
    el('td', { className: 'num', dataset: { field: 'latency' } }),
    el('td', { className: 'num', dataset: { field: 'output-wait' } }),
    el('td', { className: 'num', dataset: { field: 'latency-max' } }),
    el('td', { dataset: { field: 'since' } }),
  ]);
}

function updateRow(row, key, points, latencyPoints, outputWaitPoints) {
  const c = cells(row);
  const values = points.map((point) => point[1]);
  const last = values[values.length - 1];
  setText(c.now, formatRate(last));
  setAttr(c.now, 'data-value', last);
  setText(c.min, formatRate(Math.min(...values)));
  setText(c.max, formatRate(Math.max(...values)));
  setText(c.mean, formatRate(values.reduce((a, b) => a + b, 0) / values.length));
  const latencies = latencyPoints.map((point) => point[1]).filter((value) => value !== null);
  const lastLatency = latencyPoints.length ? latencyPoints[latencyPoints.length - 1][1] : null;
  setText(c.latency, formatLatency(lastLatency));
  setAttr(c.latency, 'data-value', lastLatency);
  const lastWait = outputWaitPoints.length ? outputWaitPoints[outputWaitPoints.length - 1][1] : null;
  setText(c['output-wait'], formatLatency(lastWait));
  setAttr(c['output-wait'], 'data-value', lastWait);
  setText(c['latency-max'], latencies.length ? formatLatency(Math.max(...latencies)) : '–');
  setText(c.since, clockTime(points[0][0]));
}
