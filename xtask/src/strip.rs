//! Drops the custom sections a browser never reads from a finished wasm file:
//! `producers` (which compilers made it) and `target_features` (what the
//! linker and wasm-opt are told the code uses). The splitter's and the
//! planner's steps need them, so this runs last, on the files served. Every
//! file carried ~200 bytes of them: a page loads up to six.

type Failure = Box<dyn std::error::Error>;

/// The custom sections dropped.
const DROPPED: [&str; 2] = ["producers", "target_features"];

/// `wasm` without the custom sections in [`DROPPED`]; every other section
/// byte for byte, in order.
pub fn served(wasm: &[u8]) -> Result<Vec<u8>, Failure> {
    if wasm.len() < 8 || wasm[..4] != *b"\0asm" {
        return Err("not a wasm module".into());
    }
    let mut out = wasm[..8].to_vec();
    let mut at = 8;
    while at < wasm.len() {
        let id = wasm[at];
        let (size, body) = leb128(wasm, at + 1)?;
        let end = body.checked_add(size).filter(|&end| end <= wasm.len()).ok_or("a section runs past the file")?;
        let dropped = id == 0 && {
            let (len, name) = leb128(wasm, body)?;
            let name = wasm.get(name..name + len).ok_or("a custom section's name runs past it")?;
            DROPPED.iter().any(|d| d.as_bytes() == name)
        };
        if !dropped {
            out.extend_from_slice(&wasm[at..end]);
        }
        at = end;
    }
    Ok(out)
}

/// An unsigned LEB128 number at `at`: its value and where what follows it starts.
fn leb128(bytes: &[u8], mut at: usize) -> Result<(usize, usize), Failure> {
    let mut value = 0usize;
    for shift in (0..35).step_by(7) {
        let byte = *bytes.get(at).ok_or("a number runs past the file")?;
        at += 1;
        value |= usize::from(byte & 0x7f) << shift;
        if byte < 0x80 {
            return Ok((value, at));
        }
    }
    Err("a number longer than 32 bits".into())
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
