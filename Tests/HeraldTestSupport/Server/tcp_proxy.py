#!/usr/bin/env python3
"""A loopback TCP forwarder for the account tests: 127.0.0.1:LISTEN -> 127.0.0.1:TARGET, each
chunk of the server's answer held DELAY_MS (a slow server, so a sync can be killed midway).
Prints the port it listens on (LISTEN 0: any free one) on its first line. Killing it is a
server that is down; starting it again on the same port, the server back.

  tcp_proxy.py LISTEN TARGET [DELAY_MS]
"""
import socket
import sys
import threading
import time


def pipe(source, sink, delay):
    try:
        while True:
            data = source.recv(4096)
            if not data:
                break
            if delay:
                time.sleep(delay)
            sink.sendall(data)
    except OSError:
        pass
    finally:
        for s in (source, sink):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass


def main():
    listen, target = int(sys.argv[1]), int(sys.argv[2])
    delay = (int(sys.argv[3]) if len(sys.argv) > 3 else 0) / 1000
    server = socket.socket()
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind(("127.0.0.1", listen))
    server.listen(64)
    print(server.getsockname()[1], flush=True)
    while True:
        client, _ = server.accept()
        try:
            upstream = socket.create_connection(("127.0.0.1", target))
        except OSError:
            client.close()
            continue
        for s in (client, upstream):
            s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        threading.Thread(target=pipe, args=(client, upstream, 0), daemon=True).start()
        threading.Thread(target=pipe, args=(upstream, client, delay), daemon=True).start()


if __name__ == "__main__":
    main()
