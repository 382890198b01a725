// The admissionregistration group's name (pkg/apis/admissionregistration/register.go GroupName), orch-branded.
export const ADMISSIONREGISTRATION_GROUP = 'admissionregistration.orch.io';
