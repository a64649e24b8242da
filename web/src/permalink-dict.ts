// The preset DEFLATE dictionary of link format v1: text that scenarios
// repeat, so a link can point back into it instead of spelling it out (links
// come out about a quarter shorter). FROZEN: every v1 link ever made decodes
// with exactly these bytes; unit/permalink.test.mjs pins their CRC-32. A
// better dictionary needs a new format version (a "v2." prefix) beside v1.
// The most common text comes last, where matches are cheapest.
export const DICTIONARY_V1 = `# schedplay scenario
apiVersion: apps/v1
kind: Deployment
spec:
  replicas: 3
  template:
apiVersion: policy/v1
kind: PodDisruptionBudget
spec:
  minAvailable: 1
  maxUnavailable: 1
  selector:
    matchLabels: {app: web}
  tolerations:
  - {key: dedicated, operator: Equal, value: gpu, effect: NoSchedule}
  taints:
  - {key: dedicated, value: gpu, effect: NoExecute}
  unschedulable: true
  nodeName: node-a
  nodeSelector: {disktype: ssd}
  affinity:
    nodeAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        nodeSelectorTerms:
        - matchExpressions:
          - {key: topology.kubernetes.io/zone, operator: In, values: [zone-a]}
      preferredDuringSchedulingIgnoredDuringExecution:
      - weight: 100
        podAffinityTerm:
    podAffinity:
    podAntiAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
      - labelSelector:
          matchLabels: {app: web}
        topologyKey: kubernetes.io/hostname
  topologySpreadConstraints:
  - maxSkew: 1
    topologyKey: topology.kubernetes.io/zone
    whenUnsatisfiable: DoNotSchedule
    whenUnsatisfiable: ScheduleAnyway
    minDomains: 3
    labelSelector:
      matchLabels: {app: web}
  terminationGracePeriodSeconds: 30
  lifecycle: {preStop: {exec: {command: [sleep, "10"]}}}
  annotations: {schedplay.dev/prestop-seconds: "10", schedplay.dev/shutdown-seconds: "5"}
status:
  phase: Running
  startTime: "2026-01-01T00:00:00Z"
apiVersion: schedplay.dev/v1alpha1
kind: Timeline
kind: Lesson
spec:
  title: Preemption
  topic: Preemption
  summary: >-
    The scheduler finds no node where the pod fits, so DefaultPreemption looks for a node where evicting lower-priority pods makes room.
  captions:
  - {at: 0s, text: "critical fits on no node."}
  - on: {kind: Nominated, pod: default/critical}
    text: "
  - on: {kind: Preempted, pod: default/
  - on: {kind: Scheduled, pod: default/
  - on: {kind: SIGTERM, pod: default/
  - on: {kind: SIGKILL, pod: default/
  - on: {kind: Deleted, pod: default/
  expect:
    pods:
      default/critical: {phase: Running, node: node-b}
      default/low: {phase: Pending}
      default/low: {phase: Deleted}
    events:
    - {kind: Preempted, pod: default/
    - {kind: SIGKILL, absent: true}
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: high}
value: 1000
globalDefault: true
preemptionPolicy: Never
description: "
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: low}
value: 100
---
apiVersion: v1
kind: Node
metadata:
  name: node-a
  labels: {kubernetes.io/hostname: node-a, topology.kubernetes.io/zone: zone-a}
status:
  allocatable: {cpu: "4", memory: 8Gi, pods: "110"}
---
apiVersion: v1
kind: Node
metadata:
  name: node-b
  labels: {kubernetes.io/hostname: node-b}
status:
  allocatable: {cpu: "4", memory: 8Gi, pods: "10"}
---
apiVersion: v1
kind: Pod
metadata:
  name: low-a1
  namespace: default
  labels: {app: web}
spec:
  nodeName: node-a
  priorityClassName: low
  containers:
  - name: app
    image: nginx
    resources:
      requests: {cpu: "1", memory: 1Gi}
  containers: [{name: app, image: nginx, resources: {requests: {cpu: "2", memory: 1Gi}}}]
---
apiVersion: v1
kind: Pod
metadata: {name: critical}
spec:
  priorityClassName: high
  containers: [{name: app, image: nginx, resources: {requests: {cpu: "1", memory: 1Gi}}}]
---
apiVersion: v1
kind: Pod
metadata:
  name: `;
