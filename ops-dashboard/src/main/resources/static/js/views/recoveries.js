// #/recoveries and #/recoveries/{id}: one row per recovery, newest first; the chosen one (on #/recoveries, the
// latest) above the list with its
// timeline (detected → snapshots fetched → decisions collected → restored → caught up), where its tasks went,
// what they replayed and why it started.
import { api } from '../api.js';
import { badge, cells, el, emptyRow, setText, syncRows, table, updateBadge } from '../dom.js';
import {
  ageElement, clockTime, exactTime, formatBytes, formatCount, formatDuration, shortTaskId, updateAge,
} from '../format.js';

export function mount(container, params, ctx) {
  const selectedId = params[0];
  const detail = el('section', { className: 'card recovery-detail', 'aria-live': 'polite', hidden: true });
  const { table: tableNode, tbody } = table([
    { text: 'Recovery', num: true }, 'Topology', 'Failed host', 'Mode', 'Status', 'Detected',
    { text: 'Tasks', num: true }, { text: 'Restore', num: true, title: 'detection until the redeployment was answered' },
    { text: 'Catch-up', num: true, title: 'redeployment until the output caught up' }, 'Outcome',
  ], 'recoveries');
  emptyRow(tbody, 10, 'Loading…');
  container.append(
    el('div', { className: 'view-header' }, [el('h1', {}, 'Recoveries')]),
    detail,
    el('section', { className: 'card table-card', 'aria-labelledby': 'recoveries-heading' }, [
      el('h2', { id: 'recoveries-heading' }, 'All recoveries (newest first)'), tableNode,
    ]),
  );

  return {
    async refresh() {
      const recoveries = (await api.recoveries()).slice().sort((a, b) => b.id - a.id);
      const shownId = selectedId !== undefined ? selectedId : recoveries.length ? recoveries[0].id : undefined;
      if (recoveries.length === 0) {
        emptyRow(tbody, 10, 'No recovery yet: no host has failed while it ran tasks.');
      } else {
        syncRows(tbody, recoveries, (r) => r.id, createRow, (row, r) => updateRow(row, r, shownId));
      }
      if (shownId !== undefined) {
        const chosen = recoveries.find((r) => String(r.id) === String(shownId));
        renderDetail(detail, chosen, shownId, selectedId === undefined);
      }
      ctx.ready();
    },
  };
}

function createRow(r) {
  return el('tr', { dataset: { recovery: String(r.id) } }, [
    el('td', { className: 'num' }, el('a', { href: '#/recoveries/' + r.id }, '#' + r.id)),
    el('td', { dataset: { field: 'topology' } }, el('a', { href: '#/topologies/' + encodeURIComponent(r.topology) },
      r.topology)),
    el('td', { className: 'mono', dataset: { field: 'failed-host' } }),
    el('td', { dataset: { field: 'mode' } }),
    el('td', { dataset: { field: 'status' } }, badge('')),
    el('td', { dataset: { field: 'detected' } }, ageElement(null)),
    el('td', { className: 'num', dataset: { field: 'tasks' } }),
    el('td', { className: 'num', dataset: { field: 'restore' } }),
    el('td', { className: 'num', dataset: { field: 'catch-up' } }),
    el('td', { dataset: { field: 'outcome' } }),
  ]);
}

function updateRow(row, r, selectedId) {
  const c = cells(row);
  setText(c['failed-host'], r.failedHost);
  setText(c.mode, r.mode);
  updateBadge(c.status.firstChild, r.status);
  updateAge(c.detected.firstChild, r.detectedAt);
  setText(c.tasks, String((r.tasks || []).length));
  setText(c.restore, formatDuration(r.restoreMillis));
  setText(c['catch-up'], formatDuration(r.catchUpMillis));
  setText(c.outcome, r.failureReason ? r.failureReason + ': ' + r.message : r.message || '');
  row.classList.toggle('selected', String(r.id) === String(selectedId));
  row.classList.toggle('row-bad', r.status === 'FAILED');
}

function renderDetail(section, r, selectedId, latest) {
  section.hidden = false;
  const key = JSON.stringify(r || null) + latest;
  if (section.dataset.rendered === key) {
    return; // unchanged: keep the reader's place
  }
  section.dataset.rendered = key;
  if (!r) {
    section.replaceChildren(el('h2', {}, 'Recovery #' + selectedId),
      el('p', {}, 'The router lists no recovery #' + selectedId + ' (it keeps the recoveries since it started).'));
    return;
  }
  const local = r.local || null;
  section.replaceChildren(
    el('div', { className: 'detail-header' }, [
      el('h2', {}, [latest ? 'Latest recovery: #' + r.id + ' of ' : 'Recovery #' + r.id + ' of ', el('a', { href: '#/topologies/' + encodeURIComponent(r.topology) },
        r.topology), ' ']),
      badge(r.status),
      el('span', { className: 'muted' }, r.mode + ' recovery, epoch ' + r.epoch),
    ]),
    el('p', { className: 'recovery-message' }, r.message || ''),
    el('div', { className: 'recovery-grid' }, [
      el('div', {}, [el('h3', {}, 'Timeline'), timeline(r)]),
      el('div', {}, [
        el('h3', {}, 'Cause and scope'),
        el('dl', { className: 'facts stacked' }, [
          fact('Failed host', el('span', { className: 'mono' }, r.failedHost)),
          fact('Cause', r.detectionCause || 'not recorded'),
          fact('Heartbeat silence', formatDuration(r.detectionMillis) + ' (last heartbeat '
            + clockTime(r.lastHeartbeat) + ')'),
          fact('Restored from', r.restoredFrom === null || r.restoredFrom === undefined
            ? 'no checkpoint (started over)' : 'checkpoint #' + r.restoredFrom),
          fact('Other tasks paused', r.otherTasksPaused === null || r.otherTasksPaused === undefined ? 'not known yet'
            : r.otherTasksPaused ? 'yes: tasks other than the lost ones were restarted or rolled back'
              : 'no: only the lost tasks were restored'),
          r.failureReason ? fact('Failure reason', r.failureReason) : null,
          local && local.fallbackReason ? fact('Fell back to global', local.fallbackReason) : null,
          local ? fact('Replayed', (local.replayedRecords === null || local.replayedRecords === undefined
            ? 'not caught up yet' : formatCount(local.replayedRecords) + ' records, '
              + formatBytes(local.replayedBytes))) : null,
          local ? fact('Logged decisions replayed', formatBytes(local.decisionBytes)) : null,
          local ? fact('Standby hosts used', String(local.standbyHosts)) : null,
        ]),
      ]),
    ]),
    forecast(r),
    el('h3', {}, 'Tasks and where they went'),
    placement(r),
  );
}

/**
 * What the router's delay model predicted when the host failed, for the mode taken and the other, beside what was
 * measured: detection, restart and restore together (the router measures them as one), catch-up and the total.
 */
function forecast(r) {
  const f = r.forecast;
  if (!f) {
    return el('p', { className: 'muted small', id: 'recovery-forecast' },
      'No prediction: the delay model could not tell when the host failed.');
  }
  const taken = r.mode === 'GLOBAL' ? f.global : f.local;
  const other = r.mode === 'GLOBAL' ? f.local : f.global;
  const measuredTotal = r.catchUpMillis === null || r.catchUpMillis === undefined || r.restoreMillis === null
    ? null : r.detectionMillis + r.restoreMillis + r.catchUpMillis;
  const rows = [
    ['detection', step(taken, 'detection'), step(other, 'detection'), r.detectionMillis],
    ['restart + restore', sum(step(taken, 'restart'), step(taken, 'restore')),
      sum(step(other, 'restart'), step(other, 'restore')), r.restoreMillis],
    ['catch-up', step(taken, 'catch-up'), step(other, 'catch-up'), r.catchUpMillis],
    ['total', taken.totalMillis, other.totalMillis, measuredTotal],
  ];
  const { table: tableNode, tbody } = table(['Step', { text: 'Predicted, ' + taken.mode, num: true },
    { text: 'Predicted, ' + other.mode, num: true }, { text: 'Measured', num: true }], 'forecast-table');
  tbody.replaceChildren(...rows.map(([name, predicted, alternative, measured]) => el('tr',
    { dataset: { step: name } }, [
      el('td', {}, name),
      el('td', { className: 'num', dataset: { field: 'predicted', value: predicted ?? '' } }, millis(predicted)),
      el('td', { className: 'num', dataset: { field: 'alternative' } }, millis(alternative)),
      el('td', { className: 'num', dataset: { field: 'measured', value: measured ?? '' } }, millis(measured)),
    ])));
  const explanations = el('details', {}, [el('summary', {}, 'How the model got its figures'),
    el('ul', { className: 'small' }, taken.steps.concat(other.steps).map((s) =>
      el('li', {}, [el('strong', {}, other.steps.includes(s) ? other.mode + ' ' : taken.mode + ' '), s.name + ': '
        + s.explanation])))]);
  return el('section', { id: 'recovery-forecast' }, [
    el('h3', {}, 'Predicted against measured'),
    el('p', { className: 'small' }, (f.chosen ? 'Recovery mode AUTO chose ' + f.chosen + '. ' : '')
      + 'The model: ' + f.reason),
    tableNode,
    el('p', { className: 'muted small' }, 'The measured detection is the heartbeat silence before the host was '
      + 'declared dead, counted from its last heartbeat; the predicted one from the failure itself.'),
    explanations,
  ]);
}

function step(forecastOfMode, name) {
  const found = forecastOfMode.steps.find((s) => s.name === name);
  return found ? found.millis : null;
}

function sum(a, b) {
  return a === null || a === undefined || b === null || b === undefined ? null : a + b;
}

function millis(value) {
  return value === null || value === undefined ? '–' : formatDuration(value);
}

/** The steps the RecoveryView's data gives; a step with no data is left out, one still ahead shows as pending. */
function timeline(r) {
  const detected = Date.parse(r.detectedAt);
  const steps = [];
  steps.push({ step: 'detected', label: 'Failure detected', at: r.detectedAt,
    note: (r.detectionCause ? r.detectionCause + ', ' : '') + formatDuration(r.detectionMillis) + ' after the last heartbeat' });
  const local = r.local;
  if (local && local.requestedAt) {
    const requested = Date.parse(local.requestedAt);
    const snapshotsAt = new Date(requested + (local.snapshotMillis || 0)).toISOString();
    const decisionsAt = new Date(requested + (local.snapshotMillis || 0) + (local.decisionMillis || 0)).toISOString();
    steps.push({ step: 'snapshots', label: 'Snapshots fetched', at: snapshotsAt,
      note: 'target hosts took ' + formatDuration(local.snapshotMillis) + ' (asked ' + clockTime(local.requestedAt) + ')' });
    steps.push({ step: 'decisions', label: 'Decisions collected', at: decisionsAt,
      note: formatDuration(local.decisionMillis) + ', ' + formatBytes(local.decisionBytes) + ' of logged decisions' });
  }
  const recovering = r.status === 'RECOVERING';
  if (r.restoredAt) {
    steps.push({ step: 'restored', label: 'Restored', at: r.restoredAt,
      note: 'every host answered the redeployment' + (r.restoreMillis !== null && r.restoreMillis !== undefined
        ? ', ' + formatDuration(r.restoreMillis) + ' after detection' : '') });
  } else if (recovering) {
    steps.push({ pending: 'restored', label: 'Restored', note: 'waiting for the hosts to answer…' });
  }
  if (r.caughtUpAt) {
    steps.push({ step: 'caught-up', label: 'Caught up', at: r.caughtUpAt,
      note: (r.mode === 'GLOBAL' ? 'the sinks' : 'the recovered tasks') + ' caught up'
        + (r.catchUpMillis !== null && r.catchUpMillis !== undefined ? ', ' + formatDuration(r.catchUpMillis)
          + ' after the redeployment' : '') });
  } else if (recovering) {
    steps.push({ pending: 'caught-up', label: 'Caught up', note: 'replaying…' });
  }
  return el('ol', { id: 'recovery-timeline', className: 'timeline' }, steps.map((s) => {
    if (s.pending) {
      return el('li', { className: 'pending', dataset: { pendingStep: s.pending } }, [
        el('span', { className: 'step-label' }, s.label), el('span', { className: 'step-time muted' }, 'pending'),
        el('span', { className: 'step-note muted' }, s.note)]);
    }
    const offset = Date.parse(s.at) - detected;
    return el('li', { dataset: { step: s.step } }, [
      el('span', { className: 'step-label' }, s.label),
      el('span', { className: 'step-time' }, [
        el('time', { dateTime: s.at, title: exactTime(s.at) }, clockTime(s.at)),
        s.step === 'detected' ? '' : el('span', { className: 'muted' }, ' +' + formatDuration(offset)),
      ]),
      el('span', { className: 'step-note muted' }, s.note),
    ]);
  }));
}

function placement(r) {
  const placedOn = (r.local && r.local.placedOn) || {};
  const { table: tableNode, tbody } = table(['Task', 'Ran on', 'Now on']);
  if ((r.tasks || []).length === 0) {
    emptyRow(tbody, 3, 'No task ran on the failed host.');
  }
  for (const task of r.tasks || []) {
    const target = placedOn[task];
    tbody.append(el('tr', {}, [
      el('td', { className: 'mono', title: task }, shortTaskId(task)),
      el('td', { className: 'mono' }, r.failedHost),
      el('td', { className: 'mono' }, target || (r.mode === 'GLOBAL'
        ? 'redeployed with the whole topology (epoch ' + r.epoch + ')' : 'not placed yet')),
    ]));
  }
  return tableNode;
}

function fact(label, value) {
  return el('div', {}, [el('dt', {}, label), el('dd', {}, value)]);
}
