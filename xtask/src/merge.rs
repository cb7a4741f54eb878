//! Joins split wasm files into one (the chunk planner's step: `plan.rs`).
//!
//! Every module the splitter writes besides the main one defines functions,
//! element segments that put them in the main module's table, and data
//! segments that write its memory; it imports only the memory, the table and
//! the stack pointer (and, in debug builds, a canary global) from
//! `__wasm_split`, exports nothing and has no start. Calls between modules go
//! through the table. So several such modules are one module when their
//! sections are laid end to end: the imports once, each module's types,
//! functions and segments renumbered past those before it. Instantiating the
//! joined module does what instantiating each did. Anything else in a module
//! (an imported function, an export, its own table) is refused: the planner
//! then stops the build rather than guess.

use std::collections::{BTreeMap, BTreeSet};
use wasm_encoder::reencode::{Reencode, RoundtripReencoder};
use wasm_encoder::{
    CodeSection, CustomSection, DataCountSection, DataSection, ElementSection, EntityType, FunctionSection,
    ImportSection, Module, TypeSection,
};
use wasmparser::{Parser, Payload, TypeRef};

type Failure = Box<dyn std::error::Error>;

/// One module's index spaces as they land in the joined module.
struct Shift {
    types: u32,
    functions: u32,
    elements: u32,
    data: u32,
    /// Its imported globals, tables and memories, by their index in it, to
    /// their index in the joined module's imports.
    globals: Vec<u32>,
    tables: Vec<u32>,
    memories: Vec<u32>,
}

impl Reencode for Shift {
    type Error = std::convert::Infallible;
    fn type_index(&mut self, ty: u32) -> Result<u32, wasm_encoder::reencode::Error<Self::Error>> {
        Ok(self.types + ty)
    }
    fn function_index(&mut self, func: u32) -> Result<u32, wasm_encoder::reencode::Error<Self::Error>> {
        Ok(self.functions + func)
    }
    fn element_index(&mut self, element: u32) -> Result<u32, wasm_encoder::reencode::Error<Self::Error>> {
        Ok(self.elements + element)
    }
    fn data_index(&mut self, data: u32) -> Result<u32, wasm_encoder::reencode::Error<Self::Error>> {
        Ok(self.data + data)
    }
    fn global_index(&mut self, global: u32) -> Result<u32, wasm_encoder::reencode::Error<Self::Error>> {
        Ok(self.globals[global as usize])
    }
    fn table_index(&mut self, table: u32) -> Result<u32, wasm_encoder::reencode::Error<Self::Error>> {
        Ok(self.tables[table as usize])
    }
    fn memory_index(&mut self, memory: u32) -> Result<u32, wasm_encoder::reencode::Error<Self::Error>> {
        Ok(self.memories[memory as usize])
    }
}

/// The modules' bytes joined into one module's, in the order given.
pub fn join(modules: &[Vec<u8>]) -> Result<Vec<u8>, Failure> {
    // The imports first: one list for all, each (module, name) once, in the
    // order first met; an import named alike must have one type.
    let mut imports: Vec<(String, String, TypeRef)> = Vec::new();
    let (mut shifts, Counts { data, .. }) = shift_parts(modules, Counts::default(), |import, shift| {
        let at = match imports.iter().position(|(m, n, _)| m == import.module && n == import.name) {
            Some(at) if imports[at].2 == import.ty => at,
            Some(_) => return Err(format!("import {}.{} has two types", import.module, import.name).into()),
            None => {
                imports.push((import.module.into(), import.name.into(), import.ty));
                imports.len() - 1
            }
        };
        let kind = |ty: &TypeRef| std::mem::discriminant(ty);
        let index = imports[..at].iter().filter(|(_, _, t)| kind(t) == kind(&import.ty)).count() as u32;
        match import.ty {
            TypeRef::Global(_) => shift.globals.push(index),
            TypeRef::Table(_) => shift.tables.push(index),
            TypeRef::Memory(_) => shift.memories.push(index),
            other => return Err(format!("a split module imports {other:?}: cannot join it").into()),
        }
        Ok(())
    })?;
    let (mut type_section, mut function_section, mut element_section, mut code_section, mut data_section) =
        (TypeSection::new(), FunctionSection::new(), ElementSection::new(), CodeSection::new(), DataSection::new());
    append_types(modules, &mut shifts, &mut type_section)?;
    append_functions(modules, &mut shifts, &mut function_section)?;
    append_elements(modules, &mut shifts, &mut element_section)?;
    append_code(modules, &mut shifts, &mut code_section)?;
    append_data(modules, &mut shifts, &mut data_section)?;
    let mut import_section = ImportSection::new();
    for (module, name, ty) in &imports {
        let ty: EntityType = RoundtripReencoder.entity_type(*ty).map_err(|e| format!("{e:?}"))?;
        import_section.import(module, name, ty);
    }
    let mut out = Module::new();
    out.section(&type_section);
    out.section(&import_section);
    out.section(&function_section);
    out.section(&element_section);
    out.section(&DataCountSection { count: data });
    out.section(&code_section);
    out.section(&data_section);
    for section in custom(modules)? {
        out.section(&section);
    }
    let bytes = out.finish();
    let features = wasmparser::WasmFeatures::all();
    wasmparser::Validator::new_with_features(features).validate_all(&bytes)?;
    Ok(bytes)
}

/// The main module (as the splitter wrote it, before wasm-bindgen) with the
/// parts laid after its own code: a part's imports are the main module's
/// exports of that name (its memory, table and stack pointer), a canary
/// global of a debug build becomes a global of the main module. Every
/// section of the main module is kept as it was, its custom sections
/// (wasm-bindgen's) included; only the parts' types, functions, element
/// and data segments and their bodies are added after its own.
pub fn join_into_main(main: &[u8], parts: &[Vec<u8>]) -> Result<Vec<u8>, Failure> {
    use wasm_encoder::{ConstExpr, GlobalSection, RawSection};
    use wasmparser::ExternalKind;
    let mut exports: BTreeMap<String, (ExternalKind, u32)> = BTreeMap::new();
    let (mut types, mut functions, mut elements, mut data, mut globals) = (0u32, 0u32, 0u32, 0u32, 0u32);
    let mut has_data_count = false;
    for payload in Parser::new(0).parse_all(main) {
        match payload? {
            Payload::ImportSection(section) => {
                for import in section.into_imports() {
                    match import?.ty {
                        TypeRef::Func(_) | TypeRef::FuncExact(_) => functions += 1,
                        TypeRef::Global(_) => globals += 1,
                        _ => {}
                    }
                }
            }
            Payload::ExportSection(section) => {
                for export in section {
                    let export = export?;
                    exports.insert(export.name.to_owned(), (export.kind, export.index));
                }
            }
            Payload::TypeSection(section) => types += section.count(),
            Payload::FunctionSection(section) => functions += section.count(),
            Payload::GlobalSection(section) => globals += section.count(),
            Payload::ElementSection(section) => elements += section.count(),
            Payload::DataSection(section) => data += section.count(),
            Payload::DataCountSection { .. } => has_data_count = true,
            _ => {}
        }
    }
    // Each part's shift, and the globals the main module must add (a debug
    // build's canary, which the loader gives each part from JS).
    let mut new_globals: Vec<wasmparser::GlobalType> = Vec::new();
    let start = Counts { types, functions, elements, data };
    let (mut shifts, Counts { data: part_data, .. }) = shift_parts(parts, start, |import, shift| {
        match (import.ty, exports.get(import.name).copied()) {
            (TypeRef::Global(_), Some((ExternalKind::Global, index))) => shift.globals.push(index),
            (TypeRef::Global(ty), None) if !ty.mutable => {
                shift.globals.push(globals + new_globals.len() as u32);
                new_globals.push(ty);
            }
            (TypeRef::Table(_), Some((ExternalKind::Table, index))) => shift.tables.push(index),
            (TypeRef::Memory(_), Some((ExternalKind::Memory, index))) => shift.memories.push(index),
            _ => {
                return Err(format!(
                    "a part imports {}.{}, which the main module does not export",
                    import.module, import.name
                )
                .into())
            }
        }
        Ok(())
    })?;
    let e = encoding;
    // The main module's sections in their order, the added ones after its
    // own entries.
    let mut out = Module::new();
    let mut code = CodeSection::new();
    let mut code_left = 0u32;
    for payload in Parser::new(0).parse_all(main) {
        let payload = payload?;
        match &payload {
            Payload::TypeSection(section) => {
                let mut all = TypeSection::new();
                for group in section.clone() {
                    RoundtripReencoder.parse_recursive_type_group(all.ty(), group?).map_err(e)?;
                }
                append_types(parts, &mut shifts, &mut all)?;
                out.section(&all);
                continue;
            }
            Payload::FunctionSection(section) => {
                let mut all = FunctionSection::new();
                RoundtripReencoder.parse_function_section(&mut all, section.clone()).map_err(e)?;
                append_functions(parts, &mut shifts, &mut all)?;
                out.section(&all);
                continue;
            }
            Payload::GlobalSection(section) if !new_globals.is_empty() => {
                let mut all = GlobalSection::new();
                RoundtripReencoder.parse_global_section(&mut all, section.clone()).map_err(e)?;
                for ty in &new_globals {
                    let init = match ty.content_type {
                        wasmparser::ValType::I64 => ConstExpr::i64_const(0),
                        _ => ConstExpr::i32_const(0),
                    };
                    let ty = RoundtripReencoder.global_type(*ty).map_err(e)?;
                    all.global(ty, &init);
                }
                out.section(&all);
                continue;
            }
            Payload::ElementSection(section) => {
                let mut all = ElementSection::new();
                RoundtripReencoder.parse_element_section(&mut all, section.clone()).map_err(e)?;
                append_elements(parts, &mut shifts, &mut all)?;
                out.section(&all);
                continue;
            }
            Payload::DataCountSection { .. } => {
                out.section(&DataCountSection { count: part_data });
                continue;
            }
            Payload::CodeSectionStart { count, .. } => {
                if !has_data_count && part_data > data {
                    out.section(&DataCountSection { count: part_data });
                }
                code_left = *count;
                if code_left == 0 {
                    append_code(parts, &mut shifts, &mut code)?;
                    out.section(&code);
                }
                continue;
            }
            Payload::CodeSectionEntry(body) => {
                code.raw(&main[body.range().start as usize..body.range().end as usize]);
                code_left -= 1;
                if code_left == 0 {
                    append_code(parts, &mut shifts, &mut code)?;
                    out.section(&code);
                }
                continue;
            }
            Payload::DataSection(section) => {
                let mut all = DataSection::new();
                RoundtripReencoder.parse_data_section(&mut all, section.clone()).map_err(e)?;
                append_data(parts, &mut shifts, &mut all)?;
                out.section(&all);
                continue;
            }
            _ => {}
        }
        if let Some((id, range)) = payload.as_section() {
            let range = range.start as usize..range.end as usize;
            out.section(&RawSection { id, data: &main[range] });
        }
    }
    if !new_globals.is_empty() && !Parser::new(0).parse_all(main).any(|p| matches!(p, Ok(Payload::GlobalSection(_)))) {
        return Err("the main module has no globals to add a canary to".into());
    }
    let bytes = out.finish();
    wasmparser::Validator::new_with_features(wasmparser::WasmFeatures::all()).validate_all(&bytes)?;
    Ok(bytes)
}

/// How many types, functions, element and data segments come before a
/// part's own.
#[derive(Clone, Copy, Default)]
struct Counts {
    types: u32,
    functions: u32,
    elements: u32,
    data: u32,
}

/// Each part's shift, its index spaces laid after `start` and the parts
/// before it; `import` says where each of its imports lands. Refuses a part
/// that defines what only the main module may (a table, memory, global,
/// export, tag or start). Also answers the counts after the last part.
fn shift_parts(
    parts: &[Vec<u8>],
    start: Counts,
    mut import: impl FnMut(wasmparser::Import<'_>, &mut Shift) -> Result<(), Failure>,
) -> Result<(Vec<Shift>, Counts), Failure> {
    let mut at = start;
    let mut shifts = Vec::new();
    for bytes in parts {
        let mut shift = Shift {
            types: at.types,
            functions: at.functions,
            elements: at.elements,
            data: at.data,
            globals: Vec::new(),
            tables: Vec::new(),
            memories: Vec::new(),
        };
        for payload in Parser::new(0).parse_all(bytes) {
            match payload? {
                Payload::ImportSection(section) => {
                    for each in section.into_imports() {
                        import(each?, &mut shift)?;
                    }
                }
                Payload::TypeSection(section) => at.types += section.count(),
                Payload::FunctionSection(section) => at.functions += section.count(),
                Payload::ElementSection(section) => at.elements += section.count(),
                Payload::DataSection(section) => at.data += section.count(),
                // The splitter writes an export section for every module,
                // empty but for the main one's (wasm-opt drops it).
                Payload::TableSection(section) if section.count() > 0 => return Err(defines("a table")),
                Payload::MemorySection(section) if section.count() > 0 => return Err(defines("a memory")),
                Payload::GlobalSection(section) if section.count() > 0 => return Err(defines("a global")),
                Payload::ExportSection(section) if section.count() > 0 => return Err(defines("an export")),
                Payload::TagSection(section) if section.count() > 0 => return Err(defines("a tag")),
                Payload::StartSection { .. } => return Err(defines("a start")),
                _ => {}
            }
        }
        shifts.push(shift);
    }
    Ok((shifts, at))
}

fn defines(what: &str) -> Failure {
    format!("a split module defines {what}: cannot join it").into()
}

/// Appends to `target` what `kind` takes from each part, shifted.
fn append<T>(
    parts: &[Vec<u8>],
    shifts: &mut [Shift],
    target: &mut T,
    mut take: impl FnMut(&mut Shift, &mut T, Payload<'_>) -> Result<(), Failure>,
) -> Result<(), Failure> {
    for (bytes, shift) in parts.iter().zip(shifts.iter_mut()) {
        for payload in Parser::new(0).parse_all(bytes) {
            take(shift, target, payload?)?;
        }
    }
    Ok(())
}

fn encoding(e: wasm_encoder::reencode::Error<std::convert::Infallible>) -> Failure {
    format!("{e:?}").into()
}

fn append_types(parts: &[Vec<u8>], shifts: &mut [Shift], target: &mut TypeSection) -> Result<(), Failure> {
    append(parts, shifts, target, |_, target, payload| {
        if let Payload::TypeSection(section) = payload {
            // A type naming another type is not renumbered here; Rust's
            // wasm has only plain function types, so a rec group is refused.
            for group in section {
                let group = group?;
                if group.is_explicit_rec_group() {
                    return Err("a rec group of types: cannot join it".into());
                }
                RoundtripReencoder.parse_recursive_type_group(target.ty(), group).map_err(encoding)?;
            }
        }
        Ok(())
    })
}

fn append_functions(parts: &[Vec<u8>], shifts: &mut [Shift], target: &mut FunctionSection) -> Result<(), Failure> {
    append(parts, shifts, target, |shift, target, payload| {
        if let Payload::FunctionSection(section) = payload {
            shift.parse_function_section(target, section).map_err(encoding)?;
        }
        Ok(())
    })
}

fn append_elements(parts: &[Vec<u8>], shifts: &mut [Shift], target: &mut ElementSection) -> Result<(), Failure> {
    append(parts, shifts, target, |shift, target, payload| {
        if let Payload::ElementSection(section) = payload {
            shift.parse_element_section(target, section).map_err(encoding)?;
        }
        Ok(())
    })
}

fn append_code(parts: &[Vec<u8>], shifts: &mut [Shift], target: &mut CodeSection) -> Result<(), Failure> {
    append(parts, shifts, target, |shift, target, payload| {
        if let Payload::CodeSectionEntry(body) = payload {
            shift.parse_function_body(target, body).map_err(encoding)?;
        }
        Ok(())
    })
}

fn append_data(parts: &[Vec<u8>], shifts: &mut [Shift], target: &mut DataSection) -> Result<(), Failure> {
    append(parts, shifts, target, |shift, target, payload| {
        if let Payload::DataSection(section) = payload {
            shift.parse_data_section(target, section).map_err(encoding)?;
        }
        Ok(())
    })
}

/// The first part's `target_features` and `producers` (one compile made
/// them all: wasm-opt reads the features).
fn custom(parts: &[Vec<u8>]) -> Result<Vec<CustomSection<'static>>, Failure> {
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for bytes in parts {
        for payload in Parser::new(0).parse_all(bytes) {
            if let Payload::CustomSection(section) = payload? {
                let name = section.name().to_owned();
                if (name == "target_features" || name == "producers") && seen.insert(name.clone()) {
                    out.push(CustomSection { name: name.into(), data: section.data().to_vec().into() });
                }
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasm_encoder::{
        ConstExpr, Elements, Function, GlobalType, Instruction, MemoryType, RefType, TableType, ValType,
    };

    /// A module as the splitter writes them: the shared imports, `count`
    /// functions (each calling the one before, the first returning `base`),
    /// an element segment putting them at table slot `slot`, and a data
    /// segment writing `text` at `address`.
    fn split_module(count: u32, base: i32, slot: i32, address: i32, text: &[u8]) -> Vec<u8> {
        let mut types = TypeSection::new();
        types.ty().function([], [ValType::I32]);
        let mut imports = ImportSection::new();
        imports.import(
            "__wasm_split",
            "memory",
            MemoryType { minimum: 1, maximum: None, memory64: false, shared: false, page_size_log2: None },
        );
        imports.import(
            "__wasm_split",
            "__indirect_function_table",
            TableType { element_type: RefType::FUNCREF, minimum: 16, maximum: None, table64: false, shared: false },
        );
        imports.import(
            "__wasm_split",
            "__wasm_split_shared0",
            GlobalType { val_type: ValType::I32, mutable: true, shared: false },
        );
        let mut functions = FunctionSection::new();
        let mut code = CodeSection::new();
        for i in 0..count {
            functions.function(0);
            let mut f = Function::new([]);
            if i == 0 {
                f.instruction(&Instruction::I32Const(base));
            } else {
                f.instruction(&Instruction::Call(i - 1));
                f.instruction(&Instruction::GlobalGet(0));
                f.instruction(&Instruction::I32Add);
            }
            f.instruction(&Instruction::End);
            code.function(&f);
        }
        let mut elements = ElementSection::new();
        let indices: Vec<u32> = (0..count).collect();
        elements.active(Some(0), &ConstExpr::i32_const(slot), Elements::Functions(indices.into()));
        let mut data = DataSection::new();
        data.active(0, &ConstExpr::i32_const(address), text.iter().copied());
        let mut module = Module::new();
        module
            .section(&types)
            .section(&imports)
            .section(&functions)
            .section(&elements)
            .section(&DataCountSection { count: 1 })
            .section(&code)
            .section(&data);
        module.finish()
    }

    /// What a module does on instantiation, read back: (slot, the function
    /// there as its body's operators) and (address, bytes).
    /// Table slots with what their function does, and memory writes.
    type Effects = (Vec<(i64, Vec<String>)>, Vec<(i64, Vec<u8>)>);

    fn effects(bytes: &[u8]) -> Effects {
        let mut bodies = Vec::new();
        let mut slots = Vec::new();
        let mut writes = Vec::new();
        let mut imported = 0usize;
        let offset = |expr: &wasmparser::ConstExpr| match expr.get_operators_reader().read().unwrap() {
            wasmparser::Operator::I32Const { value } => value as i64,
            other => panic!("{other:?}"),
        };
        for payload in Parser::new(0).parse_all(bytes) {
            match payload.unwrap() {
                Payload::ImportSection(s) => {
                    imported = s.into_imports().filter(|i| matches!(i.as_ref().unwrap().ty, TypeRef::Func(_))).count()
                }
                Payload::CodeSectionEntry(body) => {
                    let mut ops = Vec::new();
                    let mut reader = body.get_operators_reader().unwrap();
                    while !reader.eof() {
                        ops.push(format!("{:?}", reader.read().unwrap()));
                    }
                    bodies.push(ops);
                }
                Payload::ElementSection(section) => {
                    for element in section {
                        let element = element.unwrap();
                        let wasmparser::ElementKind::Active { offset_expr, .. } = element.kind else { panic!() };
                        let wasmparser::ElementItems::Functions(items) = element.items else { panic!() };
                        for (i, f) in items.into_iter().enumerate() {
                            slots.push((offset(&offset_expr) + i as i64, f.unwrap()));
                        }
                    }
                }
                Payload::DataSection(section) => {
                    for datum in section {
                        let datum = datum.unwrap();
                        let wasmparser::DataKind::Active { offset_expr, .. } = datum.kind else { panic!() };
                        writes.push((offset(&offset_expr), datum.data.to_vec()));
                    }
                }
                _ => {}
            }
        }
        // A body's calls name functions by index: spelled out as the callee's
        // body, so two modules that do the same compare equal.
        let spell = |f: u32| -> Vec<String> {
            let mut out = Vec::new();
            let mut f = f as usize;
            loop {
                if f < imported {
                    out.push(format!("imported {f}"));
                    break;
                }
                let body = &bodies[f - imported];
                out.extend(body.iter().filter(|op| !op.starts_with("Call")).cloned());
                match body.iter().find_map(|op| op.strip_prefix("Call { function_index: ")) {
                    Some(callee) => f = callee.trim_end_matches(" }").parse().unwrap(),
                    None => break,
                }
            }
            out
        };
        let mut slots: Vec<_> = slots.into_iter().map(|(slot, f)| (slot, spell(f))).collect();
        slots.sort();
        writes.sort();
        (slots, writes)
    }

    #[test]
    fn a_joined_module_fills_the_same_slots_and_memory_as_its_parts() {
        let a = split_module(3, 7, 100, 1024, b"first");
        let b = split_module(2, 9, 200, 2048, b"second");
        let joined = join(&[a.clone(), b.clone()]).unwrap();
        let (mut slots, mut writes) = effects(&a);
        let (more_slots, more_writes) = effects(&b);
        slots.extend(more_slots);
        writes.extend(more_writes);
        slots.sort();
        writes.sort();
        assert_eq!(effects(&joined), (slots, writes));
        // One set of imports, not two.
        let imports = Parser::new(0)
            .parse_all(&joined)
            .find_map(|p| match p.unwrap() {
                Payload::ImportSection(s) => Some(s.into_imports().count()),
                _ => None,
            })
            .unwrap();
        assert_eq!(imports, 3);
    }

    /// A main module as the splitter leaves it for wasm-bindgen: an imported
    /// function, its own memory, table and stack pointer exported under the
    /// names the parts import, a function in the table, a custom section.
    fn main_module() -> Vec<u8> {
        let mut types = TypeSection::new();
        types.ty().function([], [ValType::I32]);
        let mut imports = ImportSection::new();
        imports.import("__wbindgen_placeholder__", "__wbindgen_describe", wasm_encoder::EntityType::Function(0));
        let mut functions = FunctionSection::new();
        functions.function(0);
        let mut tables = wasm_encoder::TableSection::new();
        tables.table(TableType {
            element_type: RefType::FUNCREF,
            minimum: 300,
            maximum: None,
            table64: false,
            shared: false,
        });
        let mut memories = wasm_encoder::MemorySection::new();
        memories.memory(MemoryType { minimum: 1, maximum: None, memory64: false, shared: false, page_size_log2: None });
        let mut globals = wasm_encoder::GlobalSection::new();
        globals
            .global(GlobalType { val_type: ValType::I32, mutable: true, shared: false }, &ConstExpr::i32_const(4096));
        let mut exports = wasm_encoder::ExportSection::new();
        exports.export("memory", wasm_encoder::ExportKind::Memory, 0);
        exports.export("__indirect_function_table", wasm_encoder::ExportKind::Table, 0);
        exports.export("__wasm_split_shared0", wasm_encoder::ExportKind::Global, 0);
        let mut elements = ElementSection::new();
        elements.active(Some(0), &ConstExpr::i32_const(1), Elements::Functions(vec![1].into()));
        let mut code = CodeSection::new();
        let mut f = Function::new([]);
        f.instruction(&Instruction::Call(0));
        f.instruction(&Instruction::End);
        code.function(&f);
        let mut data = DataSection::new();
        data.active(0, &ConstExpr::i32_const(16), b"main".iter().copied());
        let mut module = Module::new();
        module
            .section(&types)
            .section(&imports)
            .section(&functions)
            .section(&tables)
            .section(&memories)
            .section(&globals)
            .section(&exports)
            .section(&elements)
            .section(&DataCountSection { count: 1 })
            .section(&code)
            .section(&data)
            .section(&CustomSection { name: "__wasm_bindgen_unstable".into(), data: b"kept".as_slice().into() });
        module.finish()
    }

    #[test]
    fn a_part_joined_into_the_main_module_fills_its_slots_and_memory_and_the_rest_stays() {
        let main = main_module();
        let part = split_module(3, 7, 100, 1024, b"part");
        let joined = join_into_main(&main, std::slice::from_ref(&part)).unwrap();
        let (slots, writes) = effects(&part);
        let (joined_slots, joined_writes) = effects(&joined);
        // The main module's slot 1 and data, then the part's.
        assert_eq!(joined_slots.len(), 1 + slots.len());
        for slot in &slots {
            assert!(joined_slots.contains(slot), "{slot:?} not in {joined_slots:?}");
        }
        assert_eq!(joined_writes, [vec![(16, b"main".to_vec())], writes].concat());
        let mut customs = Vec::new();
        let mut imports = 0;
        for payload in Parser::new(0).parse_all(&joined) {
            match payload.unwrap() {
                Payload::CustomSection(c) => customs.push((c.name().to_owned(), c.data().to_vec())),
                Payload::ImportSection(s) => imports += s.into_imports().count(),
                _ => {}
            }
        }
        // wasm-bindgen's section as it was; the part's imports are the main
        // module's own things, not imports.
        assert_eq!(customs, [("__wasm_bindgen_unstable".to_string(), b"kept".to_vec())]);
        assert_eq!(imports, 1);
    }

    #[test]
    fn a_module_that_exports_is_not_joined() {
        let mut module = Module::new();
        let mut exports = wasm_encoder::ExportSection::new();
        let mut types = TypeSection::new();
        types.ty().function([], []);
        let mut functions = FunctionSection::new();
        functions.function(0);
        exports.export("f", wasm_encoder::ExportKind::Func, 0);
        let mut code = CodeSection::new();
        let mut f = Function::new([]);
        f.instruction(&Instruction::End);
        code.function(&f);
        module.section(&types).section(&functions).section(&exports).section(&code);
        let bytes = module.finish();
        assert!(join(&[split_module(1, 1, 0, 0, b"x"), bytes]).is_err());
    }
}
