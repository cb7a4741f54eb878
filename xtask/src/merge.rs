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

use std::collections::BTreeSet;
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
    let mut shifts = Vec::new();
    let (mut types, mut functions, mut elements, mut data) = (0u32, 0u32, 0u32, 0u32);
    for bytes in modules {
        let mut shift =
            Shift { types, functions, elements, data, globals: Vec::new(), tables: Vec::new(), memories: Vec::new() };
        for payload in Parser::new(0).parse_all(bytes) {
            match payload? {
                Payload::ImportSection(section) => {
                    for import in section.into_imports() {
                        let import = import?;
                        let at = match imports.iter().position(|(m, n, _)| m == import.module && n == import.name) {
                            Some(at) if imports[at].2 == import.ty => at,
                            Some(_) => {
                                return Err(format!("import {}.{} has two types", import.module, import.name).into())
                            }
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
                    }
                }
                Payload::TypeSection(section) => types += section.count(),
                Payload::FunctionSection(section) => functions += section.count(),
                Payload::ElementSection(section) => elements += section.count(),
                Payload::DataSection(section) => data += section.count(),
                Payload::TableSection(_)
                | Payload::MemorySection(_)
                | Payload::GlobalSection(_)
                | Payload::ExportSection(_)
                | Payload::StartSection { .. }
                | Payload::TagSection(_) => {
                    return Err(
                        "a split module defines a table, memory, global, tag, export or start: cannot join it".into()
                    )
                }
                _ => {}
            }
        }
        shifts.push(shift);
    }
    let mut sections = Sections::default();
    for (bytes, shift) in modules.iter().zip(&mut shifts) {
        sections.add(bytes, shift)?;
    }
    let mut import_section = ImportSection::new();
    for (module, name, ty) in &imports {
        let ty: EntityType = RoundtripReencoder.entity_type(*ty).map_err(|e| format!("{e:?}"))?;
        import_section.import(module, name, ty);
    }
    let mut out = Module::new();
    out.section(&sections.types);
    out.section(&import_section);
    out.section(&sections.functions);
    out.section(&sections.elements);
    out.section(&DataCountSection { count: data });
    out.section(&sections.code);
    out.section(&sections.data);
    for custom in &sections.custom {
        out.section(custom);
    }
    let bytes = out.finish();
    let features = wasmparser::WasmFeatures::all();
    wasmparser::Validator::new_with_features(features).validate_all(&bytes)?;
    Ok(bytes)
}

/// The joined module's sections, filled one module after the other.
#[derive(Default)]
struct Sections {
    types: TypeSection,
    functions: FunctionSection,
    elements: ElementSection,
    code: CodeSection,
    data: DataSection,
    /// The first module's `target_features` and `producers` (one compile made
    /// them all: wasm-opt reads the features).
    custom: Vec<CustomSection<'static>>,
    seen: BTreeSet<String>,
}

impl Sections {
    fn add(&mut self, bytes: &[u8], shift: &mut Shift) -> Result<(), Failure> {
        let e = |e: wasm_encoder::reencode::Error<std::convert::Infallible>| format!("{e:?}");
        for payload in Parser::new(0).parse_all(bytes) {
            match payload? {
                Payload::TypeSection(section) => {
                    // A type's own references to types are not renumbered by
                    // a shift of the type section; Rust's wasm has none (plain
                    // function types), so a rec group is refused.
                    for group in section {
                        let group = group?;
                        if group.is_explicit_rec_group() {
                            return Err("a rec group of types: cannot join it".into());
                        }
                        RoundtripReencoder.parse_recursive_type_group(self.types.ty(), group).map_err(e)?;
                    }
                }
                Payload::FunctionSection(section) => {
                    shift.parse_function_section(&mut self.functions, section).map_err(e)?
                }
                Payload::ElementSection(section) => {
                    shift.parse_element_section(&mut self.elements, section).map_err(e)?
                }
                Payload::CodeSectionEntry(body) => shift.parse_function_body(&mut self.code, body).map_err(e)?,
                Payload::DataSection(section) => shift.parse_data_section(&mut self.data, section).map_err(e)?,
                Payload::CustomSection(section) => {
                    let name = section.name().to_owned();
                    if (name == "target_features" || name == "producers") && self.seen.insert(name.clone()) {
                        self.custom.push(CustomSection { name: name.into(), data: section.data().to_vec().into() });
                    }
                }
                _ => {}
            }
        }
        Ok(())
    }
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
        let offset = |expr: &wasmparser::ConstExpr| match expr.get_operators_reader().read().unwrap() {
            wasmparser::Operator::I32Const { value } => value as i64,
            other => panic!("{other:?}"),
        };
        for payload in Parser::new(0).parse_all(bytes) {
            match payload.unwrap() {
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
                out.extend(bodies[f].iter().filter(|op| !op.starts_with("Call")).cloned());
                match bodies[f].iter().find_map(|op| op.strip_prefix("Call { function_index: ")) {
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
