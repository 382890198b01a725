// The etcd client as the apiserver needs it: no 4 MiB cap on responses (grpc-js' default), since an unpaged
// list of a large collection is one range response (kube-apiserver lifts the limit the same way).
import { Etcd3, type IOptions } from 'etcd3';

export function newEtcdClient(hosts: string | string[], options: Omit<IOptions, 'hosts'> = {}): Etcd3 {
  return new Etcd3({
    ...options,
    hosts,
    grpcOptions: { ...options.grpcOptions, 'grpc.max_receive_message_length': -1, 'grpc.max_send_message_length': -1 },
  });
}
