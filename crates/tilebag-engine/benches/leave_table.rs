//! What a leave lookup costs: one leave by its rank in the full table (`LeaveTable::value`),
//! every leave of a seven-tile rack as the static player asks for them
//! (`LeaveTable::rack_leaves`: up to 128), and the weights model the table replaces
//! (`Leaves::value`), over the same leaves. `cargo bench -p tilebag-engine --bench leave_table`.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use std::hint::black_box;
use tilebag_core::bag::Rng;
use tilebag_engine::leave_table::{LeaveShape, LeaveTable};
use tilebag_engine::movegen::LeaveIndex;
use tilebag_engine::{Leaves, Rack, Tables};

/// `n` racks of seven tiles drawn from shuffled English bags (seeded).
fn racks(n: usize) -> Vec<Rack> {
    let t = Tables::english();
    let mut bag: Vec<u8> = Vec::new();
    for (code, &k) in t.counts.iter().enumerate() {
        bag.extend(std::iter::repeat_n(code as u8, usize::from(k)));
    }
    let mut rng = Rng::new(7);
    (0..n)
        .map(|_| {
            rng.shuffle(&mut bag);
            Rack::from_codes(&bag[..7])
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let model = Leaves::enable();
    let table = LeaveTable::from_model(model, LeaveShape::english());
    let racks = racks(1000);
    // Every leave of every rack (the sub-multisets a static player values).
    let mut leaves = Vec::new();
    for rack in &racks {
        let index = LeaveIndex::new(rack);
        for u in 1..index.size {
            leaves.push(rack.minus(&index.used_rack(rack, u as u16)));
        }
    }
    let sub_leaves: usize = racks.iter().map(|r| LeaveIndex::new(r).size).sum();
    let mut group = c.benchmark_group("leaves");
    group.throughput(Throughput::Elements(leaves.len() as u64));
    group.bench_function("table value, one leave at a time", |b| {
        b.iter(|| {
            let mut s = 0f32;
            for l in &leaves {
                s += table.value(black_box(l));
            }
            s
        })
    });
    group.bench_function("weights model value, one leave at a time", |b| {
        b.iter(|| {
            let mut s = 0f32;
            for l in &leaves {
                s += model.value(black_box(l));
            }
            s
        })
    });
    group.throughput(Throughput::Elements(sub_leaves as u64));
    group.bench_function("table rack_leaves, every leave of 1000 racks", |b| {
        let mut out = Vec::with_capacity(128);
        let mut best = [0f32; 16];
        b.iter_batched_ref(
            || (),
            |_| {
                let mut s = 0f32;
                for rack in &racks {
                    table.rack_leaves(black_box(rack), &mut out, &mut best);
                    s += out[out.len() - 1] + best[1];
                }
                s
            },
            BatchSize::SmallInput,
        )
    });
    group.finish();
    let mut group = c.benchmark_group("tables");
    group.sample_size(10);
    group.bench_function("weights model to a full table (914,624 leaves)", |b| {
        b.iter(|| LeaveTable::from_model(model, LeaveShape::english()))
    });
    group.finish();
    eprintln!(
        "table: {} leaves, {} bytes in memory",
        table.shape().len() - 1,
        table.memory_bytes()
    );
}

criterion_group!(benches, bench);
criterion_main!(benches);
