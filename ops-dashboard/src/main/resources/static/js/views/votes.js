// #/votes and #/votes/{topology}: per N-version operator, what each version did: agreed, outvoted, late, failed,
// excluded, and its weight in a weighted vote.
import { api, ApiError } from '../api.js';
import { cells, el, emptyRow, setAttr, setText, syncRows, table } from '../dom.js';
import { ageElement, formatCount, shortTaskId, updateAge } from '../format.js';

export function mount(container, params, ctx) {
  const only = params[0];
  const sections = el('div', { className: 'votes' });
  const intro = el('p', { className: 'muted small' },
    'Counts are ballots summed over each operator\'s vote tasks. Agreement is agreed ÷ (agreed + outvoted + late).');
  container.append(
    el('div', { className: 'view-header' }, [el('h1', {}, only ? ['Votes of ', el('span', { className: 'mono' }, only)]
      : 'Votes'), only ? el('a', { className: 'button', href: '#/votes' }, 'All topologies') : null]),
    intro, sections,
  );
  sections.append(el('p', { className: 'muted' }, 'Loading…'));
  const cards = new Map(); // "topology/operator" -> {card, tbody, meta}

  return {
    async refresh() {
      const settings = await ctx.settings();
      if (settings.votes === false) {
        sections.replaceChildren(el('p', { className: 'card notice' },
          'Votes are switched off in this dashboard\'s settings (votes: false).'));
        ctx.ready();
        return;
      }
      const ids = only ? [only] : (await api.topologies()).map((topology) => topology.id);
      const answers = await Promise.all(ids.map((id) => api.votes(id).then(
        (votes) => ({ id, votes }),
        (error) => {
          if (error instanceof ApiError && error.status === 404) {
            return { id, missing: true };
          }
          throw error;
        })));
      const entries = [];
      for (const answer of answers) {
        if (answer.missing) {
          if (only) {
            entries.push({ key: answer.id + '/', missing: answer.id });
          }
          continue;
        }
        for (const operator of answer.votes.operators || []) {
          entries.push({ key: answer.id + '/' + operator.operator, topology: answer.id, operator });
        }
      }
      render(entries, ids.length);
      ctx.ready();
    },
  };

  function render(entries, topologyCount) {
    if (entries.length === 0) {
      cards.clear();
      sections.replaceChildren(el('p', { className: 'card notice' }, topologyCount === 0
        ? 'No topology is deployed.'
        : 'No N-version operator is deployed: votes appear for operators with "versions" in their spec '
          + '(see examples/n-version-scoring.json).'));
      return;
    }
    const wanted = new Set(entries.map((entry) => entry.key));
    for (const key of Array.from(cards.keys())) {
      if (!wanted.has(key)) {
        cards.delete(key);
      }
    }
    const nodes = entries.map((entry) => {
      let card = cards.get(entry.key);
      if (!card) {
        card = entry.missing ? missingCard(entry.missing) : createCard(entry);
        cards.set(entry.key, card);
      }
      if (!entry.missing) {
        updateCard(card, entry);
      }
      return card.element;
    });
    sections.replaceChildren(...nodes);
  }
}

function missingCard(id) {
  return { element: el('p', { className: 'card notice' }, ['The router has no topology ', el('strong', {}, id),
    ' (HTTP 404). ', el('a', { href: '#/topologies' }, 'See the topology list'), '.']) };
}

function createCard(entry) {
  const { table: tableNode, tbody } = table([
    { text: 'Version', num: true }, 'Runs as', 'Type', { text: 'Agreed', num: true }, { text: 'Outvoted', num: true },
    { text: 'Late', num: true }, { text: 'Failed', num: true, title: 'times one of its tasks failed and was restarted' },
    'Excluded', { text: 'Weight', num: true }, { text: 'Agreement', num: true },
  ], 'votes-table');
  const meta = el('p', { className: 'muted small' });
  const element = el('section', { className: 'card table-card' }, [
    el('h2', {}, [el('a', { href: '#/topologies/' + encodeURIComponent(entry.topology) }, entry.topology), ' / ',
      el('span', { className: 'mono' }, entry.operator.operator)]),
    meta, tableNode,
  ]);
  return { element, tbody, meta };
}

function updateCard(card, entry) {
  const operator = entry.operator;
  const unavailable = operator.unavailable || [];
  setText(card.meta, 'Strategy: ' + operator.strategy + (unavailable.length
    ? '. Missing from the sums (vote tasks whose hosts did not answer): ' + unavailable.map(shortTaskId).join(', ')
    : ''));
  card.meta.className = unavailable.length ? 'small tone-warn' : 'muted small';
  const versions = operator.versions || [];
  if (versions.length === 0) {
    emptyRow(card.tbody, 10, 'No version reported yet.');
    return;
  }
  syncRows(card.tbody, versions, (v) => v.version,
    (v) => createRow(operator.operator, v), updateRow);
}

function createRow(operatorId, v) {
  return el('tr', { dataset: { version: operatorId + '/' + v.version } }, [
    el('td', { className: 'num' }, 'v' + v.version),
    el('td', { className: 'mono', dataset: { field: 'operator' } }),
    el('td', { dataset: { field: 'type' } }),
    el('td', { className: 'num', dataset: { field: 'agreed' } }),
    el('td', { className: 'num', dataset: { field: 'outvoted' } }),
    el('td', { className: 'num', dataset: { field: 'late' } }),
    el('td', { className: 'num', dataset: { field: 'failed' } }),
    el('td', { dataset: { field: 'excluded' } }),
    el('td', { className: 'num weight', dataset: { field: 'weight' } }, [
      el('span', { className: 'bar', 'aria-hidden': 'true' }), el('span', { className: 'value' }),
    ]),
    el('td', { className: 'num', dataset: { field: 'agreement' } }),
  ]);
}

function updateRow(row, v) {
  const c = cells(row);
  setText(c.operator, v.operator);
  setText(c.type, v.type);
  setText(c.agreed, formatCount(v.agreed));
  setText(c.outvoted, formatCount(v.outvoted));
  setText(c.late, formatCount(v.late));
  setText(c.failed, formatCount(v.failed));
  if (v.excludedSince) {
    const age = c.excluded.querySelector('time.age');
    if (age) {
      updateAge(age, v.excludedSince);
    } else {
      c.excluded.replaceChildren(el('span', { className: 'badge badge-warn' }, 'EXCLUDED'), ' since ',
        ageElement(v.excludedSince));
    }
  } else {
    setText(c.excluded, 'no');
  }
  const weight = Number(v.weight);
  setText(c.weight.lastChild, isFinite(weight) ? weight.toFixed(2) : '–');
  c.weight.firstChild.style.width = isFinite(weight) ? Math.round(Math.max(0, Math.min(1, weight)) * 100) + '%' : '0';
  const ballots = (v.agreed || 0) + (v.outvoted || 0) + (v.late || 0);
  setText(c.agreement, ballots ? (100 * v.agreed / ballots).toFixed(1) + ' %' : '–');
  setAttr(c.agreement, 'title', ballots ? formatCount(ballots) + ' ballots' : 'no ballots yet');
  row.classList.toggle('row-bad', Boolean(v.excludedSince) || (ballots > 0 && v.outvoted > v.agreed));
}
