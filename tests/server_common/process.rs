//! `tallyho serve` as a child process, as an operator runs it: started on
//! loopback with one door open, sent signals, and waited for.

use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use crate::scratch::KillOnDrop;

/// How long a server may take to exit before the test fails.
const EXIT_PATIENCE: Duration = Duration::from_secs(30);

/// `tallyho serve` keeping its data in `data`, with `ports` (its port
/// options), killed when dropped; the first line it printed.
fn serve(data: &Path, ports: [&str; 4], stderr: Stdio) -> (KillOnDrop, String) {
    let mut child = KillOnDrop(
        Command::new(env!("CARGO_BIN_EXE_tallyho"))
            .arg("serve")
            .args(ports)
            .arg("--data")
            .arg(data)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()
            .expect("tallyho serve starts"),
    );
    let mut first = String::new();
    BufReader::new(child.stdout.take().expect("its output is piped"))
        .read_line(&mut first)
        .expect("tallyho serve says where its door is");
    (child, first)
}

/// `tallyho serve` with only its line door open, on a port the system
/// picks, its standard error going to `stderr`; killed when dropped. The
/// address it printed.
pub fn serve_lines(data: &Path, stderr: Stdio) -> (KillOnDrop, String) {
    let ports = ["--ssh-port", "off", "--line-port", "0"];
    let (child, first) = serve(data, ports, stderr);
    let addr = first
        .trim()
        .strip_prefix("lines ")
        .unwrap_or_else(|| panic!("the first line names the line door: {first:?}"))
        .to_string();
    (child, addr)
}

/// `tallyho serve` with only its ssh door open, on a port the system
/// picks; killed when dropped. The port it printed.
pub fn serve_ssh(data: &Path) -> (KillOnDrop, u16) {
    let ports = ["--ssh-port", "0", "--line-port", "off"];
    let (child, first) = serve(data, ports, Stdio::null());
    let port = first
        .trim()
        .strip_prefix("ssh 127.0.0.1:")
        .unwrap_or_else(|| panic!("the first line names the ssh door: {first:?}"))
        .parse()
        .expect("the ssh door's port is a number");
    (child, port)
}

/// Sends the signal `name` (as `kill -NAME` spells it) to `child`.
pub fn signal(child: &Child, name: &str) {
    let sent = Command::new("kill")
        .args([format!("-{name}"), child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(sent.success(), "kill -{name}: {sent}");
}

/// Waits for a server told to stop to exit; how it did.
pub fn exited(child: &mut Child) -> ExitStatus {
    let end = Instant::now() + EXIT_PATIENCE;
    loop {
        if let Some(status) = child.try_wait().expect("the server can be waited for") {
            return status;
        }
        assert!(Instant::now() < end, "the server did not exit");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Waits for a server told to stop, checks that it exited with status 0,
/// and gives what it said on its standard error (piped when started).
pub fn exited_0_saying(child: &mut Child) -> String {
    assert_eq!(exited(child).code(), Some(0));
    said(child)
}

/// What a server that has exited said on its standard error (piped when
/// started).
pub fn said(child: &mut Child) -> String {
    let mut said = String::new();
    child
        .stderr
        .take()
        .expect("its standard error is piped")
        .read_to_string(&mut said)
        .expect("its standard error is read");
    said
}
