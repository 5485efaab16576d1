//! What a leave lookup costs, by this thread's CPU time (steadier than wall time on a shared
//! machine; under `valgrind --tool=callgrind` it gives instructions, whatever the load):
//! `cargo run --release -p tilebag-engine --example leavebench -- [PASSES]`. Prints the cost of
//! one leave looked up in the full table by its rank (`LeaveTable::value`), of each leave when
//! all of a rack's are asked for at once (`LeaveTable::rack_leaves`, as the static player
//! does), and of the weights model the table replaces (`Leaves::value`); and the table's
//! memory. The criterion bench `leave_table` measures the same by wall time.

use std::hint::black_box;
use tilebag_core::bag::Rng;
use tilebag_engine::leave_table::{LeaveShape, LeaveTable};
use tilebag_engine::movegen::{thread_cpu_ns, LeaveIndex};
use tilebag_engine::{Leaves, Rack, Tables};

fn main() {
    let passes: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(200);
    let t = Tables::english();
    let mut bag: Vec<u8> = Vec::new();
    for (code, &k) in t.counts.iter().enumerate() {
        bag.extend(std::iter::repeat_n(code as u8, usize::from(k)));
    }
    let mut rng = Rng::new(7);
    let racks: Vec<Rack> = (0..1000)
        .map(|_| {
            rng.shuffle(&mut bag);
            Rack::from_codes(&bag[..7])
        })
        .collect();
    let mut leaves = Vec::new();
    for rack in &racks {
        let index = LeaveIndex::new(rack);
        for u in 0..index.size {
            leaves.push(rack.minus(&index.used_rack(rack, u as u16)));
        }
    }
    let model = Leaves::enable();
    let c0 = thread_cpu_ns();
    let table = LeaveTable::from_model(model, LeaveShape::english());
    let build = thread_cpu_ns() - c0;
    let time = |f: &mut dyn FnMut() -> f32| {
        let c0 = thread_cpu_ns();
        let mut s = 0f32;
        for _ in 0..passes {
            s += f();
        }
        black_box(s);
        (thread_cpu_ns() - c0) as f64 / (passes * leaves.len()) as f64
    };
    let one = time(&mut || leaves.iter().map(|l| table.value(black_box(l))).sum());
    let modelled = time(&mut || leaves.iter().map(|l| model.value(black_box(l))).sum());
    let mut out = Vec::with_capacity(128);
    let mut best = [0f32; 16];
    let per_rack = time(&mut || {
        let mut s = 0f32;
        for rack in &racks {
            table.rack_leaves(black_box(rack), &mut out, &mut best);
            s += out[0] + best[1];
        }
        s
    });
    println!(
        "{} racks of 7, {} leaves; {passes} passes; ns of CPU a leave:",
        racks.len(),
        leaves.len()
    );
    println!("  table, one leave by its rank (LeaveTable::value)      {one:6.1}");
    println!("  table, a rack's leaves at once (rack_leaves)          {per_rack:6.1}");
    println!("  weights model (Leaves::value, what the table replaces) {modelled:5.1}");
    println!(
        "table: {} leaves, {:.2} MB ({} bytes); made from the weights in {:.0} ms",
        table.shape().len() - 1,
        table.memory_bytes() as f64 / 1e6,
        table.memory_bytes(),
        build as f64 / 1e6
    );
}
