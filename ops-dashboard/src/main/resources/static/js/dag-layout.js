// A small layered (Sugiyama-style) layout for a topology's operator graph, flowing left to right:
// 1. longest-path layering (a node sits one layer right of its furthest-left input),
// 2. a dummy node per layer an edge skips, so that long edges bend around nodes instead of through them,
// 3. barycentre ordering within layers, sweeping right then left a few times and keeping the order with the
//    fewest edge crossings,
// 4. coordinates: layers as columns, each column centred vertically.
// Pure: no DOM; the graph view draws what it returns.

const DEFAULTS = { nodeWidth: 168, nodeHeight: 78, layerGap: 76, nodeGap: 26, dummyHeight: 10, sweeps: 4, margin: 12 };

/**
 * @param nodes [{id}] in a stable order (plan order), which breaks ties
 * @param edges [{from, to, label}]
 * @returns {nodes: [{id, x, y, width, height, layer}], edges: [{from, to, label, points: [[x, y], ...]}], width, height}
 */
export function layeredLayout(nodes, edges, options) {
  const opt = { ...DEFAULTS, ...options };
  const ids = nodes.map((node) => node.id);
  const known = new Set(ids);
  const realEdges = edges.filter((edge) => known.has(edge.from) && known.has(edge.to) && edge.from !== edge.to);

  const layerOf = longestPathLayers(ids, realEdges);
  const { layers, links, chains } = withDummies(ids, realEdges, layerOf);
  orderByBarycentre(layers, links, opt.sweeps);
  return place(layers, realEdges, chains, opt);
}

function longestPathLayers(ids, edges) {
  const incoming = new Map(ids.map((id) => [id, 0]));
  const outgoing = new Map(ids.map((id) => [id, []]));
  for (const edge of edges) {
    incoming.set(edge.to, incoming.get(edge.to) + 1);
    outgoing.get(edge.from).push(edge.to);
  }
  const layer = new Map(ids.map((id) => [id, 0]));
  const queue = ids.filter((id) => incoming.get(id) === 0);
  const done = new Set();
  while (queue.length > 0) {
    const id = queue.shift();
    done.add(id);
    for (const next of outgoing.get(id)) {
      layer.set(next, Math.max(layer.get(next), layer.get(id) + 1));
      incoming.set(next, incoming.get(next) - 1);
      if (incoming.get(next) === 0) {
        queue.push(next);
      }
    }
  }
  // A cycle cannot pass the router's validation; should one arrive anyway, put its nodes after the rest.
  const last = Math.max(0, ...layer.values());
  ids.filter((id) => !done.has(id)).forEach((id, i) => layer.set(id, last + 1 + i));
  return layer;
}

/** Layers as arrays of vertices ({id, dummy}); links between adjacent layers; each edge's chain of vertex ids. */
function withDummies(ids, edges, layerOf) {
  const layerCount = Math.max(0, ...layerOf.values()) + 1;
  const layers = Array.from({ length: layerCount }, () => []);
  ids.forEach((id) => layers[layerOf.get(id)].push({ id, dummy: false }));
  const links = [];
  const chains = [];
  edges.forEach((edge, e) => {
    const chain = [edge.from];
    let previous = edge.from;
    const from = layerOf.get(edge.from);
    const to = layerOf.get(edge.to);
    for (let l = from + 1; l < to; l++) {
      const dummy = '\u0000dummy:' + e + ':' + l; // cannot clash with an operator id
      layers[l].push({ id: dummy, dummy: true });
      links.push([previous, dummy]);
      chain.push(dummy);
      previous = dummy;
    }
    links.push([previous, edge.to]);
    chain.push(edge.to);
    chains.push(chain);
  });
  return { layers, links, chains };
}

function orderByBarycentre(layers, links, sweeps) {
  const predecessors = new Map();
  const successors = new Map();
  for (const [from, to] of links) {
    push(predecessors, to, from);
    push(successors, from, to);
  }
  let best = layers.map((layer) => layer.slice());
  let bestCrossings = crossings(layers, links);
  for (let sweep = 0; sweep < sweeps && bestCrossings > 0; sweep++) {
    for (let l = 1; l < layers.length; l++) {
      sortLayer(layers[l], positions(layers[l - 1]), predecessors);
    }
    for (let l = layers.length - 2; l >= 0; l--) {
      sortLayer(layers[l], positions(layers[l + 1]), successors);
    }
    const count = crossings(layers, links);
    if (count < bestCrossings) {
      bestCrossings = count;
      best = layers.map((layer) => layer.slice());
    }
  }
  best.forEach((layer, l) => { layers[l] = layer; });
}

function sortLayer(layer, neighbourPosition, neighboursOf) {
  const keyed = layer.map((vertex, index) => {
    const positionsOfNeighbours = (neighboursOf.get(vertex.id) || [])
      .map((id) => neighbourPosition.get(id)).filter((p) => p !== undefined);
    const barycentre = positionsOfNeighbours.length === 0 ? index
      : positionsOfNeighbours.reduce((a, b) => a + b, 0) / positionsOfNeighbours.length;
    return { vertex, barycentre, index };
  });
  keyed.sort((a, b) => a.barycentre - b.barycentre || a.index - b.index);
  keyed.forEach((entry, i) => { layer[i] = entry.vertex; });
}

function positions(layer) {
  return new Map(layer.map((vertex, index) => [vertex.id, index]));
}

/** Edge crossings between adjacent layers: two links cross when their ends are in opposite orders. */
function crossings(layers, links) {
  const position = new Map();
  const layerIndex = new Map();
  layers.forEach((layer, l) => layer.forEach((vertex, i) => {
    position.set(vertex.id, i);
    layerIndex.set(vertex.id, l);
  }));
  const byLayer = new Map();
  for (const link of links) {
    push(byLayer, layerIndex.get(link[0]), link);
  }
  let count = 0;
  for (const group of byLayer.values()) {
    for (let i = 0; i < group.length; i++) {
      for (let j = i + 1; j < group.length; j++) {
        const a = position.get(group[i][0]) - position.get(group[j][0]);
        const b = position.get(group[i][1]) - position.get(group[j][1]);
        if (a * b < 0) {
          count++;
        }
      }
    }
  }
  return count;
}

function place(layers, edges, chains, opt) {
  const heightOf = (vertex) => (vertex.dummy ? opt.dummyHeight : opt.nodeHeight);
  const columnHeight = (layer) => layer.reduce((sum, v) => sum + heightOf(v), 0)
    + Math.max(0, layer.length - 1) * opt.nodeGap;
  const tallest = Math.max(opt.nodeHeight, ...layers.map(columnHeight));
  const centre = new Map();
  const placed = [];
  layers.forEach((layer, l) => {
    const x = opt.margin + l * (opt.nodeWidth + opt.layerGap);
    let y = opt.margin + (tallest - columnHeight(layer)) / 2;
    for (const vertex of layer) {
      const height = heightOf(vertex);
      centre.set(vertex.id, [x + opt.nodeWidth / 2, y + height / 2]);
      if (!vertex.dummy) {
        placed.push({ id: vertex.id, x, y, width: opt.nodeWidth, height, layer: l });
      }
      y += height + opt.nodeGap;
    }
  });
  const half = opt.nodeWidth / 2;
  const routed = edges.map((edge, e) => {
    const points = chains[e].map((id) => centre.get(id).slice());
    points[0][0] += half; // leave the source at its right side
    points[points.length - 1][0] -= half; // enter the target at its left side
    return { ...edge, points };
  });
  return {
    nodes: placed,
    edges: routed,
    width: opt.margin * 2 + layers.length * opt.nodeWidth + Math.max(0, layers.length - 1) * opt.layerGap,
    height: opt.margin * 2 + tallest,
  };
}

function push(map, key, value) {
  const list = map.get(key);
  if (list) {
    list.push(value);
  } else {
    map.set(key, [value]);
  }
}
