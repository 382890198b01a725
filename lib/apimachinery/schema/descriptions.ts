// Field and type descriptions for the OpenAPI documents (what `kubectl explain` prints), written for this project.
// descriptions.json: catalog message full name → { "": the type's description, "<json field>": the field's }.
import descriptionsJson from './descriptions.json';

const descriptions = descriptionsJson as Readonly<Record<string, Readonly<Record<string, string>>>>;

/** The description of a catalog message (its Go type), if written. */
export function typeDescription(messageFullName: string): string | undefined {
  return descriptions[messageFullName]?.[''];
}

/** The description of a message's JSON field (`kind`, `apiVersion` included), if written. */
export function fieldDescription(messageFullName: string, jsonName: string): string | undefined {
  return descriptions[messageFullName]?.[jsonName];
}
