package scenario

import (
	"reflect"
	"strings"

	"github.com/schedplay/schedplay/core/api"
	"github.com/schedplay/schedplay/core/config"
)

// Kubernetes fields the decoder does not store, per core type. Together with
// the type's own fields they are every field k8s.io/api v0.36 has (a test in
// conformance-free code cannot check that; the lists were generated from
// k8s.io/api by reflection). A name starting with "!" is a field that can
// change where a pod lands in a real cluster but that the engine does not
// simulate: using it is a warning. The others are noise, skipped silently
// (hostNetwork is read from the raw object: API defaulting makes each
// container port a host port, which NodePorts then reserves, as upstream).
var extraFieldSpecs = []struct {
	t      reflect.Type
	fields string
}{
	{reflect.TypeFor[api.ObjectMeta](), "generateName selfLink resourceVersion generation finalizers managedFields"},
	{reflect.TypeFor[api.OwnerReference](), "blockOwnerDeletion"},
	{reflect.TypeFor[api.PodSpec](), "hostNetwork !runtimeClassName !readinessGates !resourceClaims !schedulingGroup " +
		"ephemeralContainers restartPolicy activeDeadlineSeconds dnsPolicy serviceAccountName serviceAccount " +
		"automountServiceAccountToken hostPID hostIPC shareProcessNamespace securityContext imagePullSecrets hostname " +
		"subdomain hostAliases dnsConfig enableServiceLinks setHostnameAsFQDN os hostUsers hostnameOverride"},
	{reflect.TypeFor[api.Container](), "!readinessProbe command args workingDir envFrom env resizePolicy restartPolicyRules " +
		"volumeMounts volumeDevices livenessProbe startupProbe terminationMessagePath terminationMessagePolicy " +
		"imagePullPolicy securityContext stdin stdinOnce tty"},
	{reflect.TypeFor[api.ResourceRequirements](), "!claims"},
	{reflect.TypeFor[api.Lifecycle](), "postStart stopSignal"},
	{reflect.TypeFor[api.LifecycleHandler](), "tcpSocket"},
	{reflect.TypeFor[api.PodStatus](), "observedGeneration message reason hostIP hostIPs podIP podIPs initContainerStatuses " +
		"containerStatuses qosClass ephemeralContainerStatuses resize resourceClaimStatuses extendedResourceClaimStatus " +
		"allocatedResources resources nodeAllocatableResourceClaimStatuses"},
	{reflect.TypeFor[api.PodCondition](), "observedGeneration lastProbeTime lastTransitionTime"},
	{reflect.TypeFor[api.NodeSpec](), "podCIDR podCIDRs providerID configSource externalID"},
	{reflect.TypeFor[api.NodeStatus](), "!declaredFeatures phase addresses daemonEndpoints nodeInfo volumesInUse volumesAttached " +
		"config runtimeHandlers features"},
	{reflect.TypeFor[api.NodeCondition](), "lastHeartbeatTime lastTransitionTime reason message"},
	{reflect.TypeFor[api.Taint](), "timeAdded"},
	// The disruption controller's status is computed from the scenario's pods.
	{reflect.TypeFor[api.PodDisruptionBudget](), "status"},
	{reflect.TypeFor[api.PodDisruptionBudgetSpec](), "unhealthyPodEvictionPolicy"},
	{reflect.TypeFor[api.Namespace](), "spec status"},
	{reflect.TypeFor[api.Service](), "status"},
	{reflect.TypeFor[api.ServiceSpec](), "ports clusterIP clusterIPs type externalIPs sessionAffinity loadBalancerIP " +
		"loadBalancerSourceRanges externalName externalTrafficPolicy healthCheckNodePort publishNotReadyAddresses " +
		"sessionAffinityConfig ipFamilies ipFamilyPolicy allocateLoadBalancerNodePorts loadBalancerClass " +
		"internalTrafficPolicy trafficDistribution"},
	{reflect.TypeFor[api.ReplicationController](), "status"},
	{reflect.TypeFor[api.ReplicationControllerSpec](), "minReadySeconds template"},
	{reflect.TypeFor[api.ReplicaSet](), "status"},
	{reflect.TypeFor[api.StatefulSet](), "status"},
	{reflect.TypeFor[api.Deployment](), "status"},
	// One type serves ReplicaSet, StatefulSet and Deployment specs.
	{reflect.TypeFor[api.WorkloadSpec](), "minReadySeconds serviceName podManagementPolicy " +
		"updateStrategy revisionHistoryLimit persistentVolumeClaimRetentionPolicy ordinals strategy paused progressDeadlineSeconds"},
	// Volume sources other than claims do not change where a pod lands,
	// except those VolumeRestrictions and NodeVolumeLimits look at.
	{reflect.TypeFor[api.Volume](), "!ephemeral !csi !gcePersistentDisk !awsElasticBlockStore !rbd !iscsi " +
		"gitRepo nfs glusterfs flexVolume cinder cephfs flocker fc azureFile vsphereVolume quobyte azureDisk " +
		"photonPersistentDisk portworxVolume scaleIO storageos image"},
	{reflect.TypeFor[api.PersistentVolumeClaimSpec](), "dataSource dataSourceRef !volumeAttributesClassName"},
	{reflect.TypeFor[api.PersistentVolumeClaimStatus](), "conditions allocatedResources allocatedResourceStatuses " +
		"currentVolumeAttributesClassName modifyVolumeStatus"},
	{reflect.TypeFor[api.PersistentVolumeSpec](), "mountOptions !volumeAttributesClassName gcePersistentDisk awsElasticBlockStore " +
		"glusterfs iscsi rbd cinder cephfs fc flocker flexVolume azureFile vsphereVolume quobyte azureDisk " +
		"photonPersistentDisk portworxVolume scaleIO storageos"},
	{reflect.TypeFor[api.PersistentVolumeStatus](), "message reason lastPhaseTransitionTime"},
	{reflect.TypeFor[api.ObjectReference](), "resourceVersion fieldPath"},
	{reflect.TypeFor[api.CSIPersistentVolumeSource](), "controllerPublishSecretRef nodeStageSecretRef nodePublishSecretRef " +
		"controllerExpandSecretRef nodeExpandSecretRef volumeAttributes"},
	{reflect.TypeFor[api.StorageClass](), "mountOptions allowVolumeExpansion"},
	{reflect.TypeFor[api.CSIDriverSpec](), "podInfoOnMount volumeLifecycleModes fsGroupPolicy tokenRequests requiresRepublish " +
		"seLinuxMount nodeAllocatableUpdatePeriodSeconds serviceAccountTokenInSecrets !preventPodSchedulingIfMissing"},
	{reflect.TypeFor[config.KubeSchedulerConfiguration](), "!extenders parallelism leaderElection clientConnection " +
		"enableProfiling enableContentionProfiling delayCacheUntilActive"},
	{reflect.TypeFor[config.Plugins](), "!placementGenerate !placementScore"},
	{reflect.TypeFor[config.NodeResourcesFitArgs](), "apiVersion kind"},
	{reflect.TypeFor[config.NodeResourcesBalancedAllocationArgs](), "apiVersion kind"},
	{reflect.TypeFor[config.PodTopologySpreadArgs](), "apiVersion kind"},
	{reflect.TypeFor[config.InterPodAffinityArgs](), "apiVersion kind"},
	{reflect.TypeFor[config.NodeAffinityArgs](), "apiVersion kind"},
	{reflect.TypeFor[config.DefaultPreemptionArgs](), "apiVersion kind"},
}

// extraFields maps a type to its extra fields: "" for noise, else the warning.
var extraFields = func() map[reflect.Type]map[string]string {
	out := map[reflect.Type]map[string]string{}
	for _, s := range extraFieldSpecs {
		m := map[string]string{}
		for _, f := range strings.Fields(s.fields) {
			if name, ok := strings.CutPrefix(f, "!"); ok {
				m[name] = notSimulated(name)
			} else {
				m[f] = ""
			}
		}
		out[s.t] = m
	}
	return out
}()

var notSimulatedWhy = map[string]string{
	"ephemeral":                     "generic ephemeral volumes get no claim; VolumeBinding ignores them",
	"csi":                           "inline CSI volumes are not counted by NodeVolumeLimits",
	"gcePersistentDisk":             "in-tree disk conflicts (VolumeRestrictions) are not checked",
	"awsElasticBlockStore":          "in-tree disk conflicts (VolumeRestrictions) are not checked",
	"rbd":                           "in-tree disk conflicts (VolumeRestrictions) are not checked",
	"iscsi":                         "in-tree disk conflicts (VolumeRestrictions) are not checked",
	"volumeAttributesClassName":     "claims and volumes are matched without their VolumeAttributesClass",
	"preventPodSchedulingIfMissing": "the VolumeLimitScaling feature (alpha) is off",
	"runtimeClassName":              "RuntimeClass overhead and node selectors are not applied",
	"readinessGates":                "the pod's readiness is taken from status.conditions only",
	"resourceClaims":                "DynamicResources passes every node",
	"claims":                        "DynamicResources passes every node",
	"schedulingGroup":               "gang and workload-aware scheduling are not simulated",
	"readinessProbe":                "the pod's readiness is taken from status.conditions only",
	"declaredFeatures":              "NodeDeclaredFeatures passes every node",
	"extenders":                     "scheduler extenders are not called",
	"placementGenerate":             "placement plugins are not simulated",
	"placementScore":                "placement plugins are not simulated",
}

func notSimulated(name string) string {
	return "field " + name + " is not simulated: " + notSimulatedWhy[name]
}

// structFields is what decodeStruct reads of a struct type: its fields by
// YAML name (fieldName) and its extra fields (extraFields).
type structFields struct {
	byName map[string]int
	extra  map[string]string
}

func newStructFields(t reflect.Type) *structFields {
	sf := &structFields{byName: make(map[string]int, t.NumField()), extra: extraFields[t]}
	for i := 0; i < t.NumField(); i++ {
		sf.byName[fieldName(t.Field(i))] = i
	}
	return sf
}

// fieldTables holds the structFields of every struct type the decoder can
// reach from kinds and the plugins' args, built once: looking the fields up
// by reflection for each object was a good part of decoding. It is never
// written after package initialization.
var fieldTables = func() map[reflect.Type]*structFields {
	out := map[reflect.Type]*structFields{}
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		switch t {
		case quantityType, intOrStringType, timeType, pluginConfType:
			return
		}
		switch t.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Map:
			walk(t.Elem())
		case reflect.Struct:
			if _, ok := out[t]; ok {
				return
			}
			out[t] = newStructFields(t)
			for i := 0; i < t.NumField(); i++ {
				walk(t.Field(i).Type)
			}
		}
	}
	for _, k := range kinds {
		walk(reflect.TypeOf(k.newObj()))
	}
	for _, p := range upstreamPlugins {
		if a := newArgs(p); a != nil {
			walk(reflect.TypeOf(a))
		}
	}
	return out
}()

// fieldsOf returns t's structFields (built on the spot for a type the
// tables do not hold).
func fieldsOf(t reflect.Type) *structFields {
	if sf, ok := fieldTables[t]; ok {
		return sf
	}
	return newStructFields(t)
}
