// A raw HTTP client that stops reading: for tests of how the server treats watchers that do not keep up.

// Python sets SO_RCVBUF (Node cannot): connects, stops reading until SIGUSR1, then reads everything and reports
// the last event's resourceVersion, how many events it got and whether the chunked stream was ended properly.
export const STOPPED_READER = `
import json, signal, socket, sys, threading
port, path = int(sys.argv[1]), sys.argv[2]
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
s.connect(('127.0.0.1', port))
s.sendall(('GET %s HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n' % path).encode())
go = threading.Event()
signal.signal(signal.SIGUSR1, lambda *a: go.set())
print('connected', flush=True)
go.wait()
# Reading at last: a large buffer so the backlog comes quickly.
s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 22)
data = b''
s.settimeout(10)
try:
    while True:
        chunk = s.recv(1 << 20)
        if not chunk:
            break
        data += chunk
        if data.endswith(b'\\r\\n0\\r\\n\\r\\n'):
            break
except Exception:
    pass
last, count = '', 0
for line in data.split(b'\\n'):
    try:
        event = json.loads(line)
    except Exception:
        continue
    if not isinstance(event, dict):
        continue
    count += 1
    last = event['object']['metadata']['resourceVersion']
print('events=%d last=%s clean=%s' % (count, last, data.endswith(b'\\r\\n0\\r\\n\\r\\n')), flush=True)
`;
