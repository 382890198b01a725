// The flowcontrol group's name (pkg/apis/flowcontrol/register.go GroupName), orch-branded.
export const FLOWCONTROL_GROUP = 'flowcontrol.apiserver.orch.io';
