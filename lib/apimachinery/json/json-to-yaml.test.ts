// JSON values as YAML: each expected text is what sigs.k8s.io/yaml JSONToYAML (gopkg.in/yaml.v2 v2.4.0 Marshal) printed for the same JSON.
import { jsonToYaml } from './json-to-yaml';

describe('jsonToYaml writes what Kubernetes 1.26 writes', () => {
  it.each([
    [
      'a Status (the 404 body)',
      '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"namespaces \\"nope\\" not found","reason":"NotFound","details":{"name":"nope","kind":"namespaces"},"code":404}',
      'apiVersion: v1\ncode: 404\ndetails:\n  kind: namespaces\n  name: nope\nkind: Status\nmessage: namespaces "nope" not found\nmetadata: {}\nreason: NotFound\nstatus: Failure\n',
    ],
    [
      'map keys in yaml.v2 order: non-letters first, digit runs as numbers',
      '{"a10":1,"a9":2,"a09":3,"A":4,"b":5,"a-1":6,".":7,"f:x":8,"k:{\\"name\\":\\"x\\"}":9,"10":10,"9":11}',
      '.: 7\n"9": 11\n"10": 10\nA: 4\na-1: 6\na9: 2\na09: 3\na10: 1\nb: 5\nf:x: 8\nk:{"name":"x"}: 9\n',
    ],
    [
      'scalars quoted where YAML 1.1 would read another type or an indicator; escapes in double quotes',
      '{"t":"2026-11-22T22:44:23Z","d":"2026-02-30","n":"80","p":"80%","q":"500Mi","b":"on","e":"","s":" x","c":"- x","h":"#x","m":"a: b","sq":"it\'s","j":"[{\\"a\\":1}]","tab":"a\\tb","emoji":"a😀b","u":"ü","num":80,"f":1.5,"nil":null,"bool":false}',
      'b: "on"\nbool: false\nc: \'- x\'\nd: 2026-02-30\ne: ""\nemoji: "a\\U0001F600b"\nf: 1.5\nh: \'#x\'\nj: \'[{"a":1}]\'\nm: \'a: b\'\n"n": "80"\nnil: null\nnum: 80\np: 80%\nq: 500Mi\ns: \' x\'\nsq: it\'s\nt: "2026-11-22T22:44:23Z"\ntab: "a\\tb"\nu: ü\n',
    ],
    [
      'sequences not indented under their key; empty collections in flow style',
      '{"spec":{"containers":[{"name":"c","ports":[{"containerPort":80}],"args":[]},{"name":"d","env":{}}],"matrix":[[1,[2]],[]]}}',
      'spec:\n  containers:\n  - args: []\n    name: c\n    ports:\n    - containerPort: 80\n  - env: {}\n    name: d\n  matrix:\n  - - 1\n    - - 2\n  - []\n',
    ],
    [
      'long plain, single- and double-quoted strings folded at the first space past column 80',
      '{"note":"word0 word1 word2 word3 word4 word5 word6 word7 word8 word9 word10 word11 word12 word13 word14 word15","quoted":"\'word0 word1 word2 word3 word4 word5 word6 word7 word8 word9 word10 word11 word12 word13","dq":"word0 word1 word2 word3 word4 word5 word6 word7 word8 word9 word10 word11 word12  word13\\tx"}',
      "dq: \"word0 word1 word2 word3 word4 word5 word6 word7 word8 word9 word10 word11 word12\n  \\ word13\\tx\"\nnote: word0 word1 word2 word3 word4 word5 word6 word7 word8 word9 word10 word11 word12\n  word13 word14 word15\nquoted: '''word0 word1 word2 word3 word4 word5 word6 word7 word8 word9 word10 word11\n  word12 word13'\n",
    ],
    [
      'multi-line strings as literal blocks with chomping and indentation hints',
      '{"lit":"line1\\nline2\\n","strip":"a\\nb","keep":"a\\n\\n"," lead":"\\n x","trail":"a \\nb"}',
      '\' lead\': |2-\n\n   x\nkeep: |+\n  a\n\nlit: |\n  line1\n  line2\nstrip: |-\n  a\n  b\ntrail: "a \\nb"\n',
    ],
    [
      'keys longer than 128 bytes as complex keys',
      '{"kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk":[1]}',
      '? kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk\n: - 1\n',
    ],
  ])('%s', (_name, json, yaml) => {
    expect(jsonToYaml(JSON.parse(json))).toBe(yaml);
  });
});
