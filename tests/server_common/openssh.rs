//! The system's OpenSSH client for the server's tests: whether it is here,
//! keys made by `ssh-keygen`, and the `ssh` command line that trusts no
//! user configuration or agent.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Whether OpenSSH's client and key generator are here; if not, says so.
pub fn have_openssh() -> bool {
    let found = |tool: &str, arg: &str| {
        Command::new(tool)
            .arg(arg)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok()
    };
    let here = found("ssh", "-V") && found("ssh-keygen", "-?");
    if !here {
        eprintln!("note: ssh or ssh-keygen is not installed; the test is skipped");
    }
    here
}

/// An ed25519 key pair made by ssh-keygen at `dir/name`, without a
/// passphrase, with `name` as its comment.
pub fn keygen(dir: &Path, name: &str) -> PathBuf {
    keygen_of(dir, name, &["-t", "ed25519"])
}

/// A key pair of the type `kind` names (ssh-keygen's `-t` and `-b`) at
/// `dir/name`, without a passphrase.
pub fn keygen_of(dir: &Path, name: &str, kind: &[&str]) -> PathBuf {
    let key = dir.join(name);
    let made = Command::new("ssh-keygen")
        .arg("-q")
        .args(kind)
        .args(["-N", "", "-C", name, "-f"])
        .arg(&key)
        .stdin(Stdio::null())
        .output()
        .expect("ssh-keygen runs");
    assert!(made.status.success(), "ssh-keygen: {made:?}");
    key
}

/// The ssh command for `user` at the door on 127.0.0.1:`port`, with
/// `options` first (ssh takes the first value it is given), no user
/// configuration or agent, `key` or no key at all, and `dir/known_hosts`
/// as the host list, where a new host key is taken without asking.
pub fn ssh_command(
    port: u16,
    dir: &Path,
    user: &str,
    key: Option<&Path>,
    options: &[&str],
) -> Command {
    let mut cmd = Command::new("ssh");
    cmd.env_remove("SSH_AUTH_SOCK")
        .args(options)
        .args(["-F", "/dev/null", "-p", &port.to_string()])
        .args(["-o", "BatchMode=yes", "-o", "IdentitiesOnly=yes"])
        .args(["-o", "ConnectTimeout=10", "-o", "LogLevel=ERROR"])
        .args(["-o", "StrictHostKeyChecking=no"])
        .arg("-o")
        .arg(format!(
            "UserKnownHostsFile={}",
            dir.join("known_hosts").display()
        ));
    match key {
        Some(key) => cmd.arg("-i").arg(key),
        None => cmd.args(["-o", "IdentityFile=none"]),
    };
    cmd.arg(format!("{user}@127.0.0.1"));
    cmd
}
