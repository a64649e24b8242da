// Scenarios the benches load (web/bench).

// cluster is nodes nodes in 3 zones and pods pending pods of 20 apps.
export function cluster(nodes, pods) {
  const out = [];
  for (let i = 0; i < nodes; i++) {
    out.push(`---
apiVersion: v1
kind: Node
metadata: {name: node-${i}, labels: {topology.kubernetes.io/zone: zone-${i % 3}}}
status: {allocatable: {cpu: "16", memory: 64Gi, pods: "110"}}
`);
  }
  for (let i = 0; i < pods; i++) {
    out.push(`---
apiVersion: v1
kind: Pod
metadata: {name: pod-${i}, labels: {app: app-${i % 20}, tier: backend}}
spec:
  containers: [{name: c, image: registry.example/app-${i % 20}:1.0, resources: {requests: {cpu: 100m, memory: 128Mi}}}]
`);
  }
  return out.join("");
}

// megabyte is 500 nodes and as many pods as reach 1 MB of YAML.
export function megabyte() {
  let pods = 1000, text = cluster(500, pods);
  while (text.length < 1e6) text = cluster(500, (pods = Math.ceil(pods * 1e6 / text.length) + 1));
  return { text, pods };
}

// selectCpuRequest selects, in the editor, the value of pod-2500's cpu
// request, so that the next text typed replaces it, and scrolls it into
// view as a user would before typing: the keystroke then costs what it
// costs where the view already is, not the view's move to a new place.
export async function selectCpuRequest(page) {
  await page.evaluate(async () => {
    const view = window.__schedplayEditorView;
    const doc = view.state.doc.toString();
    const from = doc.indexOf("cpu: ", doc.indexOf("name: pod-2500,")) + "cpu: ".length;
    view.dispatch({ selection: { anchor: from, head: doc.indexOf(",", from) }, scrollIntoView: true });
    view.focus();
    // The move's frames and the editor's parse of what came into view.
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    await new Promise((r) => requestIdleCallback(r, { timeout: 1000 }));
  });
}
