{{/*
Names, labels and the pieces every Steadfast pod shares. Templates that take parameters take a dict with the root
context as "ctx" and the component name as "component" (router, checkpoint-service, pe-host, voter, ops-dashboard,
mongodb).
*/}}

{{- define "steadfast.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* <release>-steadfast, or the release name alone when it already contains the chart name */}}
{{- define "steadfast.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 63 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{/* <fullname>-<component>; dict ctx, component */}}
{{- define "steadfast.componentName" -}}
{{- printf "%s-%s" (include "steadfast.fullname" .ctx) .component | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "steadfast.chart" -}}
{{- printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" | trunc 63 | trimSuffix "-" }}
{{- end }}

{{/* dict ctx, component */}}
{{- define "steadfast.selectorLabels" -}}
app.kubernetes.io/name: {{ include "steadfast.name" .ctx }}
app.kubernetes.io/instance: {{ .ctx.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end }}

{{/* dict ctx, component */}}
{{- define "steadfast.labels" -}}
{{ include "steadfast.selectorLabels" . }}
app.kubernetes.io/version: {{ .ctx.Chart.AppVersion | quote }}
app.kubernetes.io/part-of: steadfast
app.kubernetes.io/managed-by: {{ .ctx.Release.Service }}
helm.sh/chart: {{ include "steadfast.chart" .ctx }}
{{- end }}

{{/* The labels every pod of the release carries, whatever its component (NetworkPolicy peers select on them). */}}
{{- define "steadfast.instanceLabels" -}}
app.kubernetes.io/name: {{ include "steadfast.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end }}

{{/* A Steadfast image; dict ctx, image (the component's image values) */}}
{{- define "steadfast.image" -}}
{{- $g := .ctx.Values.image }}
{{- printf "%s/%s:%s" (trimSuffix "/" $g.registry) .image.repository (default .ctx.Chart.AppVersion $g.tag) }}
{{- end }}

{{/* URLs of the services, as other pods reach them */}}
{{- define "steadfast.routerUrl" -}}
http://{{ include "steadfast.componentName" (dict "ctx" . "component" "router") }}:8080
{{- end }}

{{- define "steadfast.checkpointUrl" -}}
http://{{ include "steadfast.componentName" (dict "ctx" . "component" "checkpoint-service") }}:8082
{{- end }}

{{/* The MongoDB connection string of the built-in MongoDB, with a database path (or none); dict ctx, database */}}
{{- define "steadfast.mongodbUri" -}}
{{- if .ctx.Values.mongodb.enabled -}}
mongodb://{{ include "steadfast.componentName" (dict "ctx" .ctx "component" "mongodb") }}:27017{{ with .database }}/{{ . }}{{ end }}
{{- else -}}
${STEADFAST_MONGODB_URI}
{{- end }}
{{- end }}

{{/* The env var that carries an external MongoDB's connection string from its Secret, when there is one */}}
{{- define "steadfast.mongodbEnv" -}}
{{- if not .Values.mongodb.enabled -}}
- name: STEADFAST_MONGODB_URI
  valueFrom:
    secretKeyRef:
      name: {{ required "mongodb.external.existingSecret is required when mongodb.enabled is false" .Values.mongodb.external.existingSecret }}
      key: {{ .Values.mongodb.external.uriKey }}
{{- end }}
{{- end }}

{{/* A service account that mounts no token; dict ctx, component */}}
{{- define "steadfast.serviceAccount" -}}
apiVersion: v1
kind: ServiceAccount
metadata:
  name: {{ include "steadfast.componentName" . }}
  labels:
    {{- include "steadfast.labels" . | nindent 4 }}
automountServiceAccountToken: false
{{- end }}

{{/*
A ConfigMap with the component's application.yaml: the settings the chart renders (a YAML string) with the
component's extraConfig merged over them. dict ctx, component, config, extraConfig
*/}}
{{- define "steadfast.configMap" -}}
{{- $config := mergeOverwrite (fromYaml .config) (deepCopy (default (dict) .extraConfig)) }}
apiVersion: v1
kind: ConfigMap
metadata:
  name: {{ include "steadfast.componentName" . }}
  labels:
    {{- include "steadfast.labels" . | nindent 4 }}
data:
  application.yaml: |
    {{- toYaml $config | nindent 4 }}
{{- end }}

{{/* Pod-level security context of the Steadfast services; dict ctx */}}
{{- define "steadfast.podSecurityContext" -}}
runAsNonRoot: true
runAsUser: {{ .ctx.Values.podSecurity.runAsUser }}
runAsGroup: {{ .ctx.Values.podSecurity.runAsGroup }}
fsGroup: {{ .ctx.Values.podSecurity.fsGroup }}
seccompProfile:
  type: RuntimeDefault
{{- end }}

{{/* Container security context: non-root, read-only root, no privilege; dict runAsUser, runAsGroup */}}
{{- define "steadfast.containerSecurityContext" -}}
runAsNonRoot: true
runAsUser: {{ .runAsUser }}
runAsGroup: {{ .runAsGroup }}
readOnlyRootFilesystem: true
allowPrivilegeEscalation: false
privileged: false
capabilities:
  drop: ["ALL"]
seccompProfile:
  type: RuntimeDefault
{{- end }}

{{- define "steadfast.operatorsLoadExtra" -}}
{{- if .Values.operators.extraJars.image }}true{{ end }}
{{- end }}

{{/*
The container of a Steadfast Spring Boot service: configuration from its ConfigMap, the pod's identity through the
downward API, probes on the actuator's liveness and readiness groups, resources, a read-only root filesystem with
an emptyDir for /tmp. dict ctx, component, values (the component's values), port, dataPort (hosts and voters),
loadsOperators (router, hosts, voters), mongodb (services that use MongoDB)
*/}}
{{- define "steadfast.springContainer" -}}
{{- $ctx := .ctx -}}
- name: {{ .component }}
  image: {{ include "steadfast.image" (dict "ctx" $ctx "image" .values.image) }}
  imagePullPolicy: {{ $ctx.Values.image.pullPolicy }}
  ports:
    - name: http
      containerPort: {{ .port }}
      protocol: TCP
    {{- if .dataPort }}
    - name: data
      containerPort: {{ .dataPort }}
      protocol: TCP
    {{- end }}
  env:
    - name: POD_NAME
      valueFrom:
        fieldRef:
          fieldPath: metadata.name
    - name: POD_NAMESPACE
      valueFrom:
        fieldRef:
          fieldPath: metadata.namespace
    - name: POD_IP
      valueFrom:
        fieldRef:
          fieldPath: status.podIP
    - name: POD_UID
      valueFrom:
        fieldRef:
          fieldPath: metadata.uid
    - name: SPRING_CONFIG_ADDITIONAL_LOCATION
      value: file:/etc/steadfast/
    {{- if .values.javaToolOptions }}
    - name: JAVA_TOOL_OPTIONS
      value: {{ .values.javaToolOptions | quote }}
    {{- end }}
    {{- if and .loadsOperators (include "steadfast.operatorsLoadExtra" $ctx) }}
    - name: LOADER_PATH
      value: /opt/steadfast/operators,/opt/steadfast/extra-operators
    {{- end }}
    {{- if .mongodb }}
    {{- with include "steadfast.mongodbEnv" $ctx }}
    {{- . | nindent 4 }}
    {{- end }}
    {{- end }}
  startupProbe:
    httpGet:
      path: /actuator/health/liveness
      port: http
    periodSeconds: 2
    failureThreshold: 60
  livenessProbe:
    httpGet:
      path: /actuator/health/liveness
      port: http
    periodSeconds: 10
    timeoutSeconds: 2
    failureThreshold: 3
  readinessProbe:
    httpGet:
      path: /actuator/health/readiness
      port: http
    periodSeconds: 5
    timeoutSeconds: 2
    failureThreshold: 3
  resources:
    {{- toYaml .values.resources | nindent 4 }}
  securityContext:
    {{- include "steadfast.containerSecurityContext" $ctx.Values.podSecurity | nindent 4 }}
  volumeMounts:
    - name: config
      mountPath: /etc/steadfast
      readOnly: true
    - name: tmp
      mountPath: /tmp
    {{- if and .loadsOperators (include "steadfast.operatorsLoadExtra" $ctx) }}
    - name: extra-operators
      mountPath: /opt/steadfast/extra-operators
      readOnly: true
    {{- end }}
{{- end }}

{{/* An init container that copies the extra operator jars, for services that load operators; dict ctx */}}
{{- define "steadfast.operatorsInitContainers" -}}
{{- $extra := .ctx.Values.operators.extraJars }}
{{- if $extra.image }}
initContainers:
  - name: extra-operators
    image: {{ $extra.image }}
    imagePullPolicy: {{ .ctx.Values.image.pullPolicy }}
    command: ["sh", "-c", "cp {{ trimSuffix "/" $extra.path }}/*.jar /opt/steadfast/extra-operators/"]
    resources:
      {{- toYaml $extra.resources | nindent 6 }}
    securityContext:
      {{- include "steadfast.containerSecurityContext" .ctx.Values.podSecurity | nindent 6 }}
    volumeMounts:
      - name: extra-operators
        mountPath: /opt/steadfast/extra-operators
      - name: tmp
        mountPath: /tmp
{{- end }}
{{- end }}

{{/* The volumes of a Steadfast service pod; dict ctx, component, loadsOperators */}}
{{- define "steadfast.springVolumes" -}}
volumes:
  - name: config
    configMap:
      name: {{ include "steadfast.componentName" . }}
  - name: tmp
    emptyDir:
      sizeLimit: 256Mi
  {{- if and .loadsOperators (include "steadfast.operatorsLoadExtra" .ctx) }}
  - name: extra-operators
    emptyDir:
      sizeLimit: 256Mi
  {{- end }}
{{- end }}

{{/* Scheduling and image pull settings of a pod; dict ctx, values */}}
{{- define "steadfast.podPlacement" -}}
{{- with .ctx.Values.image.pullSecrets }}
imagePullSecrets:
  {{- range . }}
  - name: {{ . }}
  {{- end }}
{{- end }}
{{- with .values.nodeSelector }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .values.tolerations }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- if .values.affinity }}
affinity:
  {{- toYaml .values.affinity | nindent 2 }}
{{- else if .values.spreadAcrossNodes }}
affinity:
  podAntiAffinity:
    preferredDuringSchedulingIgnoredDuringExecution:
      - weight: 100
        podAffinityTerm:
          topologyKey: kubernetes.io/hostname
          labelSelector:
            matchLabels:
              {{- include "steadfast.selectorLabels" . | nindent 14 }}
{{- end }}
{{- end }}

{{/*
The whole pod spec of a Steadfast service: service account, security, init containers, the container, volumes and
placement. dict ctx, component, values, port, dataPort, loadsOperators, mongodb, kubernetesApi (whether the pod
mounts its service account's token: the router's only)
*/}}
{{- define "steadfast.springPodSpec" -}}
serviceAccountName: {{ include "steadfast.componentName" . }}
automountServiceAccountToken: {{ .kubernetesApi | default false }}
securityContext:
  {{- include "steadfast.podSecurityContext" . | nindent 2 }}
{{- if .loadsOperators }}
{{- include "steadfast.operatorsInitContainers" . }}
{{- end }}
containers:
  {{- include "steadfast.springContainer" . | nindent 2 }}
{{- include "steadfast.springVolumes" . | nindent 0 }}
{{- include "steadfast.podPlacement" . }}
{{- end }}

{{/* NetworkPolicy peers: the release's pods of the given components; dict ctx, components */}}
{{- define "steadfast.peers" -}}
{{- range .components }}
- podSelector:
    matchLabels:
      {{- include "steadfast.selectorLabels" (dict "ctx" $.ctx "component" .) | nindent 6 }}
{{- end }}
{{- end }}
