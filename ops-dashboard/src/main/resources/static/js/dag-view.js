// Draws a topology's operator graph as SVG: `svg#dag`, one `g.dag-node[data-operator]` per operator (id, type,
// parallelism, events/s, task states), edges with arrowheads labelled with their partitioning. The layout
// (dag-layout.js) runs only when the graph changes; live updates touch the texts and classes of the nodes.
import { el, setAttr, setText, svg } from './dom.js';
import { formatEventsPerSecond } from './format.js';
import { layeredLayout } from './dag-layout.js';

const MAX_LABEL = 22;

export function createDagView({ onSelect }) {
  const root = svg('svg', { id: 'dag', role: 'group', 'aria-label': 'Operator graph', class: 'dag' });
  const legend = el('p', { className: 'dag-legend muted' },
    'Arrows show where events flow, labelled with their partitioning. Click an operator (or Tab to it and press Enter) to see its tasks.');
  const element = el('div', { className: 'dag-wrap' }, [root, legend]);
  let signature = null;
  const nodes = new Map(); // operator -> {group, rate, summary, box}

  function setGraph(graph, newSignature) {
    if (newSignature === signature) {
      return;
    }
    signature = newSignature;
    nodes.clear();
    const layout = layeredLayout(graph.nodes, graph.edges);
    const byId = new Map(graph.nodes.map((node) => [node.id, node]));
    root.setAttribute('viewBox', '0 0 ' + layout.width + ' ' + layout.height);
    root.setAttribute('width', String(layout.width));
    root.style.maxHeight = Math.max(160, layout.height) + 'px';
    const defs = svg('defs', {}, svg('marker', {
      id: 'dag-arrow', viewBox: '0 0 10 10', refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto-start-reverse',
    }, svg('path', { d: 'M 0 0 L 10 5 L 0 10 z', class: 'dag-arrowhead' })));
    const edgeLayer = svg('g', { class: 'dag-edges' });
    const labelLayer = svg('g', { class: 'dag-edge-labels' });
    for (const edge of layout.edges) {
      edgeLayer.append(svg('path', { d: curve(edge.points), class: 'dag-edge', 'marker-end': 'url(#dag-arrow)',
        'data-from': edge.from, 'data-to': edge.to }, svg('title', {}, edge.from + ' → ' + edge.to + ' by ' + edge.label)));
      const [a, b] = edge.points;
      const x = (a[0] + b[0]) / 2;
      const y = (a[1] + b[1]) / 2;
      const width = edge.label.length * 6.4 + 8;
      labelLayer.append(svg('g', { class: 'dag-edge-label', transform: 'translate(' + x + ',' + y + ')' }, [
        svg('rect', { x: -width / 2, y: -8, width, height: 16, rx: 3 }),
        svg('text', { 'text-anchor': 'middle', y: 4 }, edge.label),
      ]));
    }
    const nodeLayer = svg('g', { class: 'dag-nodes' });
    for (const placed of layout.nodes) {
      const info = byId.get(placed.id);
      nodeLayer.append(drawNode(placed, info));
    }
    root.replaceChildren(defs, edgeLayer, nodeLayer, labelLayer);
  }

  function drawNode(placed, info) {
    const label = placed.id.length > MAX_LABEL ? placed.id.slice(0, MAX_LABEL - 1) + '…' : placed.id;
    const kind = info.vote ? 'vote of ' + info.parallelism : info.type + ' × ' + info.parallelism;
    const rate = svg('text', { x: 10, y: 52, class: 'dag-rate', 'data-operator-rate': placed.id }, '–');
    const summary = svg('text', { x: 10, y: 68, class: 'dag-summary' }, '');
    const title = svg('title', {}, placed.id);
    const box = svg('rect', { width: placed.width, height: placed.height, rx: 6, class: 'dag-box' });
    const group = svg('g', {
      class: 'dag-node tone-neutral' + (info.vote ? ' vote' : '') + (info.versionOf ? ' version' : ''),
      'data-operator': placed.id, transform: 'translate(' + placed.x + ',' + placed.y + ')',
      tabindex: 0, role: 'button', 'aria-label': 'Operator ' + placed.id + ', ' + kind,
    }, [
      title, box,
      svg('text', { x: 10, y: 19, class: 'dag-id' }, label),
      svg('text', { x: 10, y: 35, class: 'dag-type' }, kind),
      rate, summary,
    ]);
    group.addEventListener('click', () => onSelect(placed.id));
    group.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' || event.key === ' ') {
        event.preventDefault();
        onSelect(placed.id);
      }
    });
    nodes.set(placed.id, { group, rate, summary, title, kind });
    return group;
  }

  /** stateOf(operator) -> {rate, tone, summary, selected} */
  function update(stateOf) {
    for (const [operator, node] of nodes) {
      const state = stateOf(operator);
      const rateText = state.rate === undefined || state.rate === null ? '– events/s' : formatEventsPerSecond(state.rate);
      setText(node.rate, rateText);
      setAttr(node.rate, 'data-value', state.rate === undefined || state.rate === null ? null : state.rate);
      setText(node.summary, state.summary);
      setText(node.title, operator + ' (' + node.kind + '): ' + rateText + ', ' + state.summary);
      const className = 'dag-node tone-' + state.tone + (node.group.classList.contains('vote') ? ' vote' : '')
        + (node.group.classList.contains('version') ? ' version' : '') + (state.selected ? ' selected' : '');
      if (node.group.getAttribute('class') !== className) {
        node.group.setAttribute('class', className);
      }
      setAttr(node.group, 'aria-pressed', state.selected ? 'true' : 'false');
    }
  }

  return { element, setGraph, update, dispose() { nodes.clear(); } };
}

/** A smooth path through the points: horizontal tangents at each point, as layered graphs are usually drawn. */
function curve(points) {
  let d = 'M ' + points[0][0] + ' ' + points[0][1];
  for (let i = 1; i < points.length; i++) {
    const [x0, y0] = points[i - 1];
    const [x1, y1] = points[i];
    const dx = (x1 - x0) / 2;
    d += ' C ' + (x0 + dx) + ' ' + y0 + ', ' + (x1 - dx) + ' ' + y1 + ', ' + x1 + ' ' + y1;
  }
  return d;
}
