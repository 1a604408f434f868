// #/topologies: every deployed topology with its status, epoch, tasks, recoveries and throughput.
import { api } from '../api.js';
import { badge, cells, el, emptyRow, setAttr, setText, syncRows, table, updateBadge } from '../dom.js';
import { ageElement, formatCount, formatEventsPerSecond, updateAge } from '../format.js';

export function mount(container, params, ctx) {
  const { table: tableNode, tbody } = table([
    'Topology', 'Status', { text: 'Epoch', num: true, title: '0, plus one per global recovery' },
    { text: 'Tasks', num: true, title: 'running / all' }, { text: 'Recoveries', num: true },
    { text: 'Events/s', num: true, title: 'events emitted by its source operators per second' },
    'Deployed', 'More',
  ], 'topologies');
  container.append(
    el('div', { className: 'view-header' }, [
      el('h1', {}, 'Topologies'),
      el('a', { className: 'button', href: '#/deploy' }, 'Deploy a topology'),
    ]),
    el('section', { className: 'card table-card', 'aria-label': 'Deployed topologies' }, [tableNode]),
  );
  emptyRow(tbody, 8, 'Loading…');

  /** id -> merged {summary, detail, overview} */
  const state = new Map();
  let order = [];
  let loaded = false;

  function render() {
    if (order.length === 0) {
      emptyRow(tbody, 8, el('span', {}, ['No topology is deployed. ', el('a', { href: '#/deploy' }, 'Deploy one'),
        ' from the examples.']));
      return;
    }
    syncRows(tbody, order.map((id) => state.get(id)), (item) => item.id, createRow, updateRow);
  }

  return {
    async refresh() {
      let summaries;
      try {
        summaries = await api.topologies();
      } catch (error) {
        if (!loaded) {
          emptyRow(tbody, 8, 'Unknown: the topology list could not be read (see the message above).');
        }
        throw error;
      }
      const details = await Promise.allSettled(summaries.map((summary) => api.topology(summary.id)));
      const next = new Map();
      summaries.forEach((summary, i) => {
        const previous = state.get(summary.id) || {};
        next.set(summary.id, {
          ...previous,
          id: summary.id,
          summary,
          detail: details[i].status === 'fulfilled' ? details[i].value : previous.detail,
          detailError: details[i].status === 'rejected' ? details[i].reason : null,
        });
      });
      state.clear();
      next.forEach((value, key) => state.set(key, value));
      order = summaries.map((summary) => summary.id);
      const overview = ctx.overview();
      if (overview) {
        mergeOverview(overview);
      }
      loaded = true;
      render();
      ctx.ready();
    },
    onOverview(overview) {
      if (loaded && mergeOverview(overview)) {
        render();
      }
    },
  };

  /** Takes status, task counts and rates from the live overview; true if it knew any listed topology. */
  function mergeOverview(overview) {
    let any = false;
    for (const topology of overview.topologies || []) {
      const entry = state.get(topology.id);
      if (entry) {
        entry.overview = topology;
        any = true;
      }
    }
    return any;
  }
}

function createRow(item) {
  const id = item.id;
  const row = el('tr', { dataset: { topology: id } }, [
    el('td', { dataset: { field: 'id' } }, el('a', { href: '#/topologies/' + encodeURIComponent(id) }, id)),
    el('td', { dataset: { field: 'status' } }, badge('')),
    el('td', { className: 'num', dataset: { field: 'epoch' } }),
    el('td', { className: 'num', dataset: { field: 'tasks' } }),
    el('td', { className: 'num', dataset: { field: 'recoveries' } }),
    el('td', { className: 'num', dataset: { field: 'rate' } }),
    el('td', { dataset: { field: 'deployed' } }, ageElement(null)),
    el('td', { className: 'links' }, [
      el('a', { href: '#/topologies/' + encodeURIComponent(id) + '/checkpoints' }, 'checkpoints'), ' ',
      el('a', { href: '#/votes/' + encodeURIComponent(id) }, 'votes'),
    ]),
  ]);
  return row;
}

function updateRow(row, item) {
  const c = cells(row);
  const detail = item.detail;
  const live = item.overview;
  const status = (live && live.status) || (detail && detail.status) || item.summary.status;
  updateBadge(c.status.firstChild, status, item.detailError ? item.detailError.message : null);
  setText(c.epoch, detail ? detail.epoch : '–');
  const tasks = (live && live.tasks && live.tasks.length ? live.tasks : detail && detail.tasks) || [];
  const running = tasks.filter((task) => task.status === 'RUNNING').length;
  setText(c.tasks, tasks.length ? running + ' / ' + tasks.length : String(item.summary.tasks));
  setAttr(c.tasks, 'title', tasks.length ? running + ' of ' + tasks.length + ' tasks RUNNING' : null);
  setText(c.recoveries, detail ? formatCount(detail.recoveries) : '–');
  const rate = sourceRate(detail, live);
  setText(c.rate, rate === null ? '–' : formatEventsPerSecond(rate));
  setAttr(c.rate, 'data-value', rate === null ? null : rate);
  updateAge(c.deployed.firstChild, item.summary.deployedAt);
}

/** Sum of the events/s of the operators without inputs (its sources), from the live overview when it has them. */
function sourceRate(detail, live) {
  const rates = (live && live.operators && live.operators.length ? live.operators : detail && detail.operators) || [];
  if (rates.length === 0) {
    return null;
  }
  const specOperators = (detail && detail.spec && detail.spec.operators) || [];
  const sources = new Set(specOperators.filter((op) => !op.inputs || op.inputs.length === 0).map((op) => op.id));
  const chosen = sources.size ? rates.filter((rate) => sources.has(rate.operator)) : rates.slice(0, 1);
  return chosen.reduce((sum, rate) => sum + (Number(rate.eventsPerSecond) || 0), 0);
}
