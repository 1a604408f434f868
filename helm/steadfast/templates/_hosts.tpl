{{/*
Hosts and voters run the same code (the voter-service is the pe-host-service that registers as a VOTER), so they
share these templates. dict ctx, component (pe-host or voter), values, replicas, port
*/}}

{{/* The host's settings: its identity from the downward API, where it binds and what it advertises */}}
{{- define "steadfast.hostConfig" -}}
server:
  port: {{ .port }}
steadfast:
  host:
    id: ${POD_NAME}
    instance: ${POD_UID}
    router-url: {{ include "steadfast.routerUrl" .ctx }}
    advertised-url: http://${POD_IP}:{{ .port }}
    checkpoint-url: {{ include "steadfast.checkpointUrl" .ctx }}
    data:
      bind-address: tcp://0.0.0.0:{{ .values.dataPort }}
      advertised-host: ${POD_IP}
{{- end }}

{{- define "steadfast.hostConfigMap" -}}
{{- include "steadfast.configMap" (merge (dict "config" (include "steadfast.hostConfig" .) "extraConfig" .values.extraConfig) .) }}
{{- end }}

{{/* The StatefulSet: stable pod names (the host ids), all started at once; the router scales it */}}
{{- define "steadfast.hostStatefulSet" -}}
apiVersion: apps/v1
kind: StatefulSet
metadata:
  name: {{ include "steadfast.componentName" . }}
  labels:
    {{- include "steadfast.labels" . | nindent 4 }}
spec:
  replicas: {{ .replicas }}
  serviceName: {{ include "steadfast.componentName" . }}
  # hosts are peers: none waits for another to start or stop
  podManagementPolicy: Parallel
  updateStrategy:
    type: RollingUpdate
  selector:
    matchLabels:
      {{- include "steadfast.selectorLabels" . | nindent 6 }}
  template:
    metadata:
      labels:
        {{- include "steadfast.selectorLabels" . | nindent 8 }}
      annotations:
        checksum/config: {{ include "steadfast.hostConfigMap" . | sha256sum }}
    spec:
      {{- include "steadfast.springPodSpec" (merge (dict "loadsOperators" true "dataPort" .values.dataPort) .) | nindent 6 }}
{{- end }}

{{/* A headless Service, the StatefulSet's governing Service; peers reach each other by the pod IPs they advertise */}}
{{- define "steadfast.hostService" -}}
apiVersion: v1
kind: Service
metadata:
  name: {{ include "steadfast.componentName" . }}
  labels:
    {{- include "steadfast.labels" . | nindent 4 }}
spec:
  clusterIP: None
  publishNotReadyAddresses: true
  selector:
    {{- include "steadfast.selectorLabels" . | nindent 4 }}
  ports:
    - name: http
      port: {{ .port }}
      targetPort: http
      protocol: TCP
    - name: data
      port: {{ .values.dataPort }}
      targetPort: data
      protocol: TCP
{{- end }}

{{/* Every object of a kind of host */}}
{{- define "steadfast.hostObjects" -}}
{{ include "steadfast.serviceAccount" . }}
---
{{ include "steadfast.hostConfigMap" . }}
---
{{ include "steadfast.hostService" . }}
---
{{ include "steadfast.hostStatefulSet" . }}
{{- end }}
