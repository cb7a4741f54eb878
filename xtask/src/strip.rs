//! Drops the custom sections a browser never reads from a finished wasm file:
//! `producers` (which compilers made it) and `target_features` (what the
//! linker and wasm-opt are told the code uses). The splitter's and the
//! planner's steps need them, so this runs last, on the files served. Every
//! file carried ~200 bytes of them: a page loads up to six.

type Failure = Box<dyn std::error::Error>;

/// The custom sections dropped.
const DROPPED: [&str; 2] = ["producers", "target_features"];

/// `wasm` without the custom sections in [`DROPPED`]; every other section
/// byte for byte, in order (read by wasmparser: a file it cannot read is
/// refused, not cut).
pub fn served(wasm: &[u8]) -> Result<Vec<u8>, Failure> {
    use wasmparser::{Parser, Payload};
    if wasm.len() < 8 || wasm[..4] != *b"\0asm" {
        return Err("not a wasm module".into());
    }
    let mut out = wasm[..8].to_vec();
    // Where the section being read starts: its id, then its size.
    let mut start = 8usize;
    for payload in Parser::new(0).parse_all(wasm) {
        let payload = payload?;
        let dropped = matches!(&payload, Payload::CustomSection(c) if DROPPED.contains(&c.name()));
        // A section's content range; its id and size come before, from `start`.
        let Some((_, content)) = payload.as_section() else { continue };
        let end = usize::try_from(content.end)?;
        if !dropped {
            out.extend_from_slice(wasm.get(start..end).ok_or("a section runs past the file")?);
        }
        start = end;
    }
    if start != wasm.len() {
        return Err("the file does not end with its last section".into());
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_encoder::{CodeSection, CustomSection, Function, FunctionSection, Module, TypeSection};
    use wasmparser::{Parser, Payload};

    fn customs(wasm: &[u8]) -> Vec<String> {
        Parser::new(0)
            .parse_all(wasm)
            .filter_map(|p| match p.unwrap() {
                Payload::CustomSection(c) => Some(c.name().to_owned()),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn the_served_file_keeps_every_section_but_the_build_notes() {
        let mut module = Module::new();
        let mut types = TypeSection::new();
        types.ty().function([], []);
        module.section(&types);
        module.section(&CustomSection { name: "producers".into(), data: vec![7u8; 300].into() });
        let mut functions = FunctionSection::new();
        functions.function(0);
        module.section(&functions);
        let mut code = CodeSection::new();
        let mut body = Function::new([]);
        body.instructions().end();
        code.function(&body);
        module.section(&code);
        module.section(&CustomSection { name: "kept".into(), data: b"x".as_slice().into() });
        module.section(&CustomSection { name: "target_features".into(), data: vec![1u8; 150].into() });
        let wasm = module.finish();
        assert_eq!(customs(&wasm), ["producers", "kept", "target_features"]);

        let served = served(&wasm).unwrap();
        assert_eq!(customs(&served), ["kept"]);
        // 300 + 150 bytes of data, their names and headers, and no more.
        assert_eq!(wasm.len() - served.len(), (1 + 2 + 1 + 9 + 300) + (1 + 2 + 1 + 15 + 150));
        let functions: Vec<_> = Parser::new(0)
            .parse_all(&served)
            .filter_map(|p| match p.unwrap() {
                Payload::FunctionSection(f) => Some(f.count()),
                _ => None,
            })
            .collect();
        assert_eq!(functions, [1]);
    }

    #[test]
    fn a_broken_file_is_refused_not_cut() {
        assert!(served(b"\0asm\x01\0\0\0\x00\x7f").is_err());
        assert!(served(b"not wasm").is_err());
    }
}
