/** A CONNECT proxy on loopback that tunnels every target to one port and remembers what it was asked for. */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';

export interface ConnectProxy {
  server: Server;
  url: string;
  /** The `host:port` of every CONNECT received, in order. */
  tunnels: string[];
}

export async function connectProxy(port: number): Promise<ConnectProxy> {
  const tunnels: string[] = [];
  const server = createServer();
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    tunnels.push(req.url ?? '');
    const upstream = connect(port, '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, tunnels };
}
