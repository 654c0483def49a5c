//! The line door: plain lines over TCP, as `nc host 2323` speaks them.
//! Every client is a guest in the scripted dialect: prompts printed, lines
//! echoed, until it asks for `proto json`.

use std::io;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

use super::Server;
use super::limits::Permit;
use super::link::{Arrival, Dialect, Door, Identity, LineCutter, PlainRows, QUESTION_PAUSE};

/// Runs the line door on a bound listener until the server shuts down.
pub async fn serve(listener: TcpListener, server: Server) -> io::Result<()> {
    loop {
        let accepted = tokio::select! {
            () = server.shutdown().cancelled() => return Ok(()),
            accepted = listener.accept() => accepted,
        };
        let (stream, peer) = match accepted {
            Ok(pair) => pair,
            Err(_) => {
                // Out of descriptors, or a connection reset while queued:
                // wait a moment rather than spin.
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        match server.gate().admit(peer, Instant::now()) {
            Ok(permit) => {
                tokio::spawn(connection(stream, peer, permit, server.clone()));
            }
            Err(why) => {
                tokio::spawn(async move {
                    let mut stream = stream;
                    let line = format!("Sorry: {why}.\n");
                    let _ = tokio::time::timeout(
                        Duration::from_secs(1),
                        stream.write_all(line.as_bytes()),
                    )
                    .await;
                });
            }
        }
    }
}

/// One connection: its lines to the session, the session's text back.
async fn connection(stream: TcpStream, peer: SocketAddr, permit: Permit, server: Server) {
    let _ = stream.set_nodelay(true);
    let door = server.arrive(Arrival {
        peer,
        door: Door::Lines,
        identity: Identity::Guest,
        dialect: Dialect::Script,
        width: Arc::default(),
        colour: false,
    });
    let (mut from, mut to) = stream.into_split();
    let input = door.input;
    let mut output = door.output;
    let closed = door.closed;
    let idle = server.gate().limits().idle;
    let reading = async move {
        let mut cutter = LineCutter::default();
        let mut buf = vec![0; 4096];
        loop {
            let read = tokio::time::timeout(idle, from.read(&mut buf)).await;
            let Ok(Ok(n @ 1..)) = read else {
                break;
            };
            let mut lines = Vec::new();
            cutter.feed(&buf[..n], &mut |line| lines.push(line));
            for line in lines {
                if input.send(line).await.is_err() {
                    return;
                }
            }
        }
        if let Some(line) = cutter.finish() {
            let _ = input.send(line).await;
        }
        // Dropping `input` ends the session's input.
    };
    // A client that takes nothing for the idle time is gone, as one that
    // says nothing is: without the bound, one that stopped reading would
    // hold its place for good once its session had ended, the door
    // waiting to hand it the session's last words.
    let writing = async move {
        let mut rows = PlainRows::default();
        loop {
            // After a notice, the question again, unless the session
            // speaks first.
            let text = if rows.is_owed() {
                match tokio::time::timeout(QUESTION_PAUSE, output.recv()).await {
                    Ok(text) => text.map(|text| rows.write(text)),
                    Err(_) => Some(rows.owed()),
                }
            } else {
                output.recv().await.map(|text| rows.write(text))
            };
            let Some(text) = text else { break };
            let sent = tokio::time::timeout(idle, to.write_all(&text)).await;
            if !matches!(sent, Ok(Ok(()))) {
                return;
            }
        }
        let _ = tokio::time::timeout(idle, to.shutdown()).await;
    };
    let reading = tokio::spawn(reading);
    tokio::select! {
        () = writing => {}
        () = closed.cancelled() => {}
        () = server.closing().cancelled() => {}
    }
    reading.abort();
    drop(permit);
}
