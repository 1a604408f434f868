// ECharts (5.3.1, the global `echarts` of its WebJar) behind two small calls, so that a view needs no chart code
// and a missing library degrades to a message rather than an error.
import { el } from './dom.js';

export function chartsAvailable() {
  return typeof window.echarts !== 'undefined' && typeof window.echarts.init === 'function';
}

/**
 * A chart in {@code container} (which must have a height in CSS). Returns {set(option), dispose()}; set merges
 * the option without animation. Resizes with its container.
 */
export function createChart(container, baseOption) {
  if (!chartsAvailable()) {
    container.replaceChildren(el('p', { className: 'muted chart-missing' },
      'The chart library did not load (GET /webjars/echarts/dist/echarts.min.js); the table shows the same data.'));
    return { set() {}, dispose() {} };
  }
  const chart = window.echarts.init(container, null, { renderer: 'canvas' });
  chart.setOption({ animation: false, ...baseOption });
  const observer = new ResizeObserver(() => {
    if (!chart.isDisposed()) {
      chart.resize();
    }
  });
  observer.observe(container);
  return {
    set(option, replaceSeries) {
      if (!chart.isDisposed()) {
        chart.setOption(option, replaceSeries ? { replaceMerge: ['series'] } : undefined);
      }
    },
    dispose() {
      observer.disconnect();
      if (!chart.isDisposed()) {
        chart.dispose();
      }
    },
  };
}

export const AXIS_STYLE = {
  axisLine: { lineStyle: { color: '#8c959f' } },
  axisLabel: { color: '#424a53' },
  splitLine: { lineStyle: { color: '#eaeef2' } },
  nameTextStyle: { color: '#424a53' },
};
