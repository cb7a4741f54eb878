//! What a file of joined chunks weighs as it will be served: the chunks
//! joined (`merge::join`), shrunk again by wasm-opt (a release build) and
//! compressed as `scripts/precompress.sh` serves them. The planner's model
//! guesses; this measures, once per set of chunks (docs/split.md, "The
//! chunk planner").

use crate::{brotli_size, merge, optimize, Failure};
use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};

pub struct Joins {
    /// Where the chunks are, as the splitter (and wasm-opt) left them.
    chunks: PathBuf,
    /// Where a join is written to be measured.
    scratch: PathBuf,
    /// Whether the served files go through wasm-opt.
    opt: bool,
    known: HashMap<Vec<String>, u64>,
    /// Each join measured, as it will be served: the build takes the
    /// chosen plan's files from here rather than joining them again.
    made: HashMap<Vec<String>, PathBuf>,
    /// How many joins were measured, and how long they took.
    pub measured: usize,
    pub seconds: f64,
}

impl Joins {
    pub fn new(chunks: PathBuf, scratch: PathBuf, opt: bool) -> Result<Self, Failure> {
        let _ = fs::remove_dir_all(&scratch);
        fs::create_dir_all(&scratch)?;
        Ok(Joins { chunks, scratch, opt, known: HashMap::new(), made: HashMap::new(), measured: 0, seconds: 0.0 })
    }

    /// The brotli size of the file of `stems` joined in that order.
    pub fn size(&mut self, stems: &[String]) -> Result<u64, Failure> {
        if let Some(&bytes) = self.known.get(stems) {
            return Ok(bytes);
        }
        let started = std::time::Instant::now();
        let bytes = if let [one] = stems {
            brotli_size(&self.chunks.join(format!("{one}.wasm")))?
        } else {
            let mut parts = Vec::new();
            for stem in stems {
                parts.push(fs::read(self.chunks.join(format!("{stem}.wasm")))?);
            }
            let file = format!("join_{}.wasm", self.made.len());
            fs::write(self.scratch.join(&file), merge::join(&parts)?)?;
            if self.opt {
                optimize(&self.scratch, std::slice::from_ref(&file))?;
            }
            self.made.insert(stems.to_vec(), self.scratch.join(&file));
            brotli_size(&self.scratch.join(&file))?
        };
        self.measured += 1;
        self.seconds += started.elapsed().as_secs_f64();
        self.known.insert(stems.to_vec(), bytes);
        Ok(bytes)
    }

    /// The file of `stems` joined, as measured (and optimised, when the
    /// served files are), if it was.
    pub fn made(&self, stems: &[String]) -> Option<&Path> {
        self.made.get(stems).map(PathBuf::as_path)
    }
}
