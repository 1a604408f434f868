// A topology's operator graph ({nodes, edges}) from the router's execution plan, or from the spec when the plan
// cannot be read. Both give the operators as they run: an N-version operator `score` is its versions
// `score~v0`, ... plus a vote operator that keeps the id `score` (as the router's NVersionExpansion does).

import { operatorOfTask } from './format.js';

const VERSION_MARK = '~v';
const VOTE_TYPE = 'vote';

/** From GET /api/v1/topologies/{id}/plan: tasks carry {id, type, parallelism, outputs: [{to, partitioning}]}. */
export function graphFromPlan(plan) {
  const nodes = new Map();
  const edges = new Map();
  for (const task of plan.tasks || []) {
    const operator = operatorOfTask(task.id);
    if (!nodes.has(operator)) {
      nodes.set(operator, node(operator, task.type, task.parallelism));
    }
    for (const output of task.outputs || []) {
      const key = operator + '\u0000' + output.to + '\u0000' + output.partitioning;
      if (!edges.has(key)) {
        edges.set(key, { from: operator, to: output.to, label: partitioningName(output.partitioning) });
      }
    }
  }
  return { nodes: Array.from(nodes.values()), edges: Array.from(edges.values()) };
}

/** From a topology spec (the detail's `spec`): operators with {id, type, parallelism, inputs, versions}. */
export function graphFromSpec(spec) {
  const nodes = [];
  const edges = [];
  for (const operator of (spec && spec.operators) || []) {
    const inputs = operator.inputs || [];
    const parallelism = operator.parallelism || 1;
    if (Array.isArray(operator.versions) && operator.versions.length > 1) {
      operator.versions.forEach((version, j) => {
        const id = operator.id + VERSION_MARK + j;
        nodes.push(node(id, version.type, parallelism));
        inputs.forEach((input) => edges.push({ from: input.from, to: id, label: partitioningName(input.partitioning) }));
        edges.push({ from: id, to: operator.id, label: 'key' });
      });
      nodes.push(node(operator.id, VOTE_TYPE, parallelism));
    } else {
      const type = operator.type || (operator.versions && operator.versions[0] && operator.versions[0].type);
      nodes.push(node(operator.id, type, parallelism));
      inputs.forEach((input) => edges.push({ from: input.from, to: operator.id,
        label: partitioningName(input.partitioning) }));
    }
  }
  return { nodes, edges };
}

function node(id, type, parallelism) {
  const versionAt = id.lastIndexOf(VERSION_MARK);
  return {
    id,
    type: type || '?',
    parallelism: parallelism || 1,
    vote: type === VOTE_TYPE,
    versionOf: versionAt > 0 ? id.slice(0, versionAt) : null,
  };
}

/** The JSON names: key, round-robin, broadcast (the enum names are accepted too); key when absent. */
function partitioningName(partitioning) {
  if (!partitioning) {
    return 'key';
  }
  return String(partitioning).toLowerCase().replace('_', '-');
}

/** A string that changes when nodes or edges change, so the view lays the graph out again only then. */
export function graphSignature(graph) {
  return graph.nodes.map((n) => n.id + ':' + n.type + ':' + n.parallelism).join(',') + '|'
    + graph.edges.map((e) => e.from + '>' + e.to + ':' + e.label).join(',');
}
