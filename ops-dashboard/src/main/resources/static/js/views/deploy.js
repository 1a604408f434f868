// #/deploy: edit a topology spec (starting from an example), check its JSON syntax while typing, deploy it, and
// show the router's validation errors at the line of the field each names.
import { api, ApiError } from '../api.js';
import { el } from '../dom.js';
import { createJsonEditor } from '../json-editor.js';
import { locatePath } from '../json-scanner.js';

const OPEN_DELAY_MS = 1200;

/** Its refresh reads only the dashboard's packaged examples. */
export const worksWithoutRouter = true;

export function mount(container, params, ctx) {
  const select = el('select', { id: 'example' }, el('option', { value: '' }, 'Loading examples…'));
  const deployButton = el('button', { id: 'deploy', type: 'button', className: 'primary' }, 'Deploy');
  const result = el('div', { id: 'deploy-result', 'aria-live': 'polite' });
  const editor = createJsonEditor({ id: 'spec-editor', label: 'Topology spec (JSON)', onChange: () => {} });
  let examples = [];
  let openTimer = 0;

  container.append(
    el('div', { className: 'view-header' }, [el('h1', {}, 'Deploy a topology')]),
    el('div', { className: 'deploy-layout' }, [
      el('section', { className: 'card editor-card', 'aria-label': 'Topology spec' }, [
        el('label', { htmlFor: 'spec-editor', className: 'editor-label' }, 'Topology spec (JSON)'),
        editor.element,
      ]),
      el('aside', { className: 'card deploy-side' }, [
        el('label', { htmlFor: 'example' }, 'Start from an example'),
        select,
        el('p', { className: 'muted small' }, 'Choosing an example replaces the text in the editor.'),
        deployButton,
        result,
      ]),
    ]),
  );

  select.addEventListener('change', () => {
    const example = examples.find((candidate) => candidate.name === select.value);
    if (example) {
      editor.setText(JSON.stringify(example.spec, null, 2) + '\n');
      result.replaceChildren();
    }
  });
  deployButton.addEventListener('click', deploy);

  async function deploy() {
    clearTimeout(openTimer);
    const scanned = editor.check();
    if (!scanned) {
      showResult('bad', 'Not sent: the JSON has a syntax error (marked in the editor). Fix it and deploy again.');
      return;
    }
    deployButton.disabled = true;
    showResult('info', 'Deploying…');
    try {
      const { data } = await api.deploy(editor.getText());
      editor.clearMarkers();
      const id = (data && data.id) || (scanned.value && scanned.value.id);
      const placed = data && Array.isArray(data.tasks) ? data.tasks.length + ' tasks placed. ' : '';
      const warnings = (data && data.warnings) || [];
      showResult('ok', ['Deployed ', el('strong', {}, id), '. ' + placed + 'Opening its page… ',
        el('a', { href: '#/topologies/' + encodeURIComponent(id) }, 'open now'),
        warnings.length ? el('ul', {}, warnings.map((text) => el('li', {}, 'Placement: ' + text))) : null]);
      openTimer = setTimeout(() => ctx.isCurrent() && ctx.navigate('#/topologies/' + encodeURIComponent(id)),
        OPEN_DELAY_MS);
    } catch (error) {
      showFailure(error, scanned.paths);
    } finally {
      deployButton.disabled = false;
    }
  }

  function showFailure(error, paths) {
    if (!(error instanceof ApiError)) {
      throw error;
    }
    const problem = error.problem || {};
    const errors = Array.isArray(problem.errors) ? problem.errors : [];
    if (error.status === 400 && errors.length > 0) {
      const unplaced = new Set(editor.showFieldErrors(errors, paths));
      showResult('bad', [
        el('strong', {}, (problem.title || 'Invalid topology') + ': ' + errors.length
          + (errors.length === 1 ? ' problem' : ' problems') + '.'),
        problem.detail ? el('p', {}, problem.detail) : null,
        el('ul', { className: 'error-list' }, errors.map((item) => errorItem(item, paths, unplaced.has(item)))),
      ]);
      return;
    }
    editor.clearMarkers();
    showResult('bad', [
      el('strong', {}, 'Not deployed: ' + (problem.title || 'HTTP ' + error.status)),
      el('p', {}, problem.detail || error.message),
      error.hint ? el('p', { className: 'hint' }, 'Check: ' + error.hint) : null,
    ]);
  }

  function errorItem(item, paths, unplaced) {
    const where = unplaced ? null : locatePath(paths, item.field);
    const text = [el('code', {}, item.field || '(no field)'),
      item.operator ? ' (operator ' + item.operator + ')' : '', ': ' + item.message];
    if (!where) {
      return el('li', {}, [...text, el('span', { className: 'muted' }, ' — not found in the text')]);
    }
    return el('li', {}, [el('button', {
      type: 'button', className: 'link', title: 'Go to line ' + where.line,
      onclick: () => editor.focusLine(where.line),
    }, 'line ' + where.line), ' ', ...text]);
  }

  function showResult(tone, content) {
    result.className = 'deploy-result tone-' + tone;
    result.replaceChildren(...(Array.isArray(content) ? content : [content]).filter(Boolean));
  }

  return {
    async refresh() {
      if (examples.length > 0 || select.dataset.loaded) {
        return; // examples do not change while the page is open
      }
      try {
        examples = await api.examples();
      } catch (error) {
        select.replaceChildren(el('option', { value: '' }, 'Examples unavailable'));
        select.dataset.loaded = 'failed';
        if (!editor.getText()) {
          editor.setText('{\n  "id": "my-topology",\n  "operators": []\n}\n');
        }
        ctx.ready();
        throw error;
      }
      select.dataset.loaded = 'true';
      select.replaceChildren(...examples.map((example) => el('option', { value: example.name }, example.name)));
      if (examples.length === 0) {
        select.replaceChildren(el('option', { value: '' }, 'No examples packaged'));
      } else if (!editor.getText()) {
        select.value = examples[0].name;
        editor.setText(JSON.stringify(examples[0].spec, null, 2) + '\n');
      }
      ctx.ready();
    },
    dispose() {
      clearTimeout(openTimer);
    },
  };
}
