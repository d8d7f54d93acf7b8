//! Links the C++ standard library that CaDiCaL (cargo feature `cadical`)
//! needs: statically when the compiler has the archive, else the shared
//! library. Statically, a run does not load and relocate libstdc++.so at
//! start-up (about 0.4 ms of CPU a run; Cargo.toml, `link-cplusplus`).

use std::path::Path;
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=CXX");
    if std::env::var_os("CARGO_FEATURE_CADICAL").is_none() {
        return;
    }
    let compiler = std::env::var("CXX").unwrap_or_else(|_| "c++".to_owned());
    let archive = Command::new(&compiler)
        .arg("-print-file-name=libstdc++.a")
        .output()
        .ok()
        .map(|out| String::from_utf8_lossy(&out.stdout).trim().to_owned());
    // Without the archive, the compiler prints the bare name back.
    match archive.as_deref().map(Path::new) {
        Some(path) if path.is_absolute() && path.exists() => {
            let directory = path.parent().expect("an absolute path has a parent");
            println!("cargo:rustc-link-search=native={}", directory.display());
            println!("cargo:rustc-link-lib=static=stdc++");
        }
        _ => println!("cargo:rustc-link-lib=dylib=stdc++"),
    }
}
