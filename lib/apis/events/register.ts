// The events group's name (pkg/apis/events/register.go GroupName), orch-branded; it serves core v1 Events as events/v1.
export const EVENTS_GROUP = 'events.orch.io';
