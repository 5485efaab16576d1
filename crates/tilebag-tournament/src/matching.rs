//! Maximum-weight matching in general graphs (Edmonds' blossom algorithm with Galil's dual
//! updates, O(n³)), and a minimum-cost *perfect* matching over a complete graph that solves a
//! sparse candidate graph and then proves, with the dual solution, that no other edge could do
//! better ("pricing"): edges whose reduced cost is negative are added and the solve repeated.
//! The answer is therefore exact for the complete graph while the solver only ever sees a few
//! dozen edges per vertex.
//!
//! All arithmetic is integral: vertex duals are stored doubled, so integer weights keep every
//! dual an integer.

const NONE: usize = usize::MAX;

/// The result of [`max_weight_matching`]: mates, and the dual solution that certifies optimality.
#[derive(Debug, Clone)]
pub struct Matching {
    /// `mate[v]` is the vertex matched to `v`, if any.
    pub mate: Vec<Option<usize>>,
    /// Doubled vertex duals (`0..n`) and blossom duals (`n..2n`).
    dual: Vec<i64>,
    /// The parent blossom of each vertex or blossom, `NONE` at the top.
    blossom_parent: Vec<usize>,
    /// Whether the blossom slot is in use (its base is set).
    blossom_live: Vec<bool>,
}

impl Matching {
    /// Reduced cost ("slack") of an edge with weight `w` between `i` and `j`, doubled. The
    /// matching is optimal over any edge set whose every edge has slack ≥ 0.
    pub fn slack(&self, chains: &[Vec<usize>], i: usize, j: usize, w: i64) -> i64 {
        let mut s = self.dual[i] + self.dual[j] - 2 * w;
        for (bi, bj) in chains[i].iter().zip(chains[j].iter()) {
            if bi != bj {
                break;
            }
            s += 2 * self.dual[*bi];
        }
        s
    }

    /// For each vertex, its enclosing blossoms from the outermost inwards (for [`Matching::slack`]).
    pub fn blossom_chains(&self) -> Vec<Vec<usize>> {
        let n = self.mate.len();
        (0..n)
            .map(|v| {
                let mut chain = Vec::new();
                let mut b = self.blossom_parent[v];
                while b != NONE {
                    debug_assert!(self.blossom_live[b]);
                    chain.push(b);
                    b = self.blossom_parent[b];
                }
                chain.reverse();
                chain
            })
            .collect()
    }
}

struct Solver<'a> {
    n: usize,
    edges: &'a [(usize, usize, i64)],
    endpoint: Vec<usize>,
    neighbend: Vec<Vec<usize>>,
    mate: Vec<usize>,
    label: Vec<u8>,
    labelend: Vec<usize>,
    inblossom: Vec<usize>,
    blossomparent: Vec<usize>,
    blossomchilds: Vec<Vec<usize>>,
    blossombase: Vec<usize>,
    blossomendps: Vec<Vec<usize>>,
    bestedge: Vec<usize>,
    blossombestedges: Vec<Option<Vec<usize>>>,
    unusedblossoms: Vec<usize>,
    dualvar: Vec<i64>,
    allowedge: Vec<bool>,
    queue: Vec<usize>,
}

fn at(v: &[usize], j: isize) -> usize {
    v[j.rem_euclid(v.len() as isize) as usize]
}

impl<'a> Solver<'a> {
    fn new(n: usize, edges: &'a [(usize, usize, i64)]) -> Solver<'a> {
        let maxweight = edges.iter().map(|e| e.2).max().unwrap_or(0).max(0);
        let mut endpoint = Vec::with_capacity(2 * edges.len());
        let mut neighbend = vec![Vec::new(); n];
        for (k, &(i, j, _)) in edges.iter().enumerate() {
            endpoint.push(i);
            endpoint.push(j);
            neighbend[i].push(2 * k + 1);
            neighbend[j].push(2 * k);
        }
        let mut dualvar = vec![maxweight; n];
        dualvar.extend(std::iter::repeat_n(0, n));
        let mut blossombase: Vec<usize> = (0..n).collect();
        blossombase.extend(std::iter::repeat_n(NONE, n));
        Solver {
            n,
            edges,
            endpoint,
            neighbend,
            mate: vec![NONE; n],
            label: vec![0; 2 * n],
            labelend: vec![NONE; 2 * n],
            inblossom: (0..n).collect(),
            blossomparent: vec![NONE; 2 * n],
            blossomchilds: vec![Vec::new(); 2 * n],
            blossombase,
            blossomendps: vec![Vec::new(); 2 * n],
            bestedge: vec![NONE; 2 * n],
            blossombestedges: vec![None; 2 * n],
            unusedblossoms: (n..2 * n).rev().collect(),
            dualvar,
            allowedge: vec![false; edges.len()],
            queue: Vec::new(),
        }
    }

    fn slack(&self, k: usize) -> i64 {
        let (i, j, w) = self.edges[k];
        self.dualvar[i] + self.dualvar[j] - 2 * w
    }

    fn leaves(&self, b: usize, out: &mut Vec<usize>) {
        if b < self.n {
            out.push(b);
            return;
        }
        let mut stack = vec![b];
        while let Some(x) = stack.pop() {
            if x < self.n {
                out.push(x);
            } else {
                // Reverse so leaves come out in child order (only for determinism).
                for &c in self.blossomchilds[x].iter().rev() {
                    stack.push(c);
                }
            }
        }
    }

    fn leaves_of(&self, b: usize) -> Vec<usize> {
        let mut v = Vec::new();
        self.leaves(b, &mut v);
        v
    }

    fn assign_label(&mut self, w: usize, t: u8, p: usize) {
        let b = self.inblossom[w];
        self.label[w] = t;
        self.label[b] = t;
        self.labelend[w] = p;
        self.labelend[b] = p;
        self.bestedge[w] = NONE;
        self.bestedge[b] = NONE;
        if t == 1 {
            let mut leaves = Vec::new();
            self.leaves(b, &mut leaves);
            self.queue.extend(leaves);
        } else if t == 2 {
            let base = self.blossombase[b];
            let mb = self.mate[base];
            self.assign_label(self.endpoint[mb], 1, mb ^ 1);
        }
    }

    fn scan_blossom(&mut self, mut v: usize, mut w: usize) -> usize {
        let mut path = Vec::new();
        let mut base = NONE;
        while v != NONE || w != NONE {
            let mut b = self.inblossom[v];
            if self.label[b] & 4 != 0 {
                base = self.blossombase[b];
                break;
            }
            path.push(b);
            self.label[b] = 5;
            if self.labelend[b] == NONE {
                v = NONE;
            } else {
                v = self.endpoint[self.labelend[b]];
                b = self.inblossom[v];
                v = self.endpoint[self.labelend[b]];
            }
            if w != NONE {
                std::mem::swap(&mut v, &mut w);
            }
        }
        for b in path {
            self.label[b] = 1;
        }
        base
    }

    fn add_blossom(&mut self, base: usize, k: usize) {
        let (mut v, mut w, _) = self.edges[k];
        let bb = self.inblossom[base];
        let mut bv = self.inblossom[v];
        let mut bw = self.inblossom[w];
        let b = self.unusedblossoms.pop().expect("a free blossom slot");
        self.blossombase[b] = base;
        self.blossomparent[b] = NONE;
        self.blossomparent[bb] = b;
        let mut path = Vec::new();
        let mut endps = Vec::new();
        while bv != bb {
            self.blossomparent[bv] = b;
            path.push(bv);
            endps.push(self.labelend[bv]);
            v = self.endpoint[self.labelend[bv]];
            bv = self.inblossom[v];
        }
        path.push(bb);
        path.reverse();
        endps.reverse();
        endps.push(2 * k);
        while bw != bb {
            self.blossomparent[bw] = b;
            path.push(bw);
            endps.push(self.labelend[bw] ^ 1);
            w = self.endpoint[self.labelend[bw]];
            bw = self.inblossom[w];
        }
        self.label[b] = 1;
        self.labelend[b] = self.labelend[bb];
        self.dualvar[b] = 0;
        self.blossomchilds[b] = path.clone();
        self.blossomendps[b] = endps;
        for leaf in self.leaves_of(b) {
            if self.label[self.inblossom[leaf]] == 2 {
                self.queue.push(leaf);
            }
            self.inblossom[leaf] = b;
        }
        let mut bestedgeto = vec![NONE; 2 * self.n];
        for &bv in &path {
            let nblists: Vec<Vec<usize>> = match self.blossombestedges[bv].take() {
                Some(list) => vec![list],
                None => self
                    .leaves_of(bv)
                    .into_iter()
                    .map(|leaf| self.neighbend[leaf].iter().map(|p| p / 2).collect())
                    .collect(),
            };
            for nblist in nblists {
                for k in nblist {
                    let (mut i, mut j, _) = self.edges[k];
                    if self.inblossom[j] == b {
                        std::mem::swap(&mut i, &mut j);
                    }
                    let _ = i;
                    let bj = self.inblossom[j];
                    if bj != b
                        && self.label[bj] == 1
                        && (bestedgeto[bj] == NONE || self.slack(k) < self.slack(bestedgeto[bj]))
                    {
                        bestedgeto[bj] = k;
                    }
                }
            }
            self.bestedge[bv] = NONE;
        }
        let list: Vec<usize> = bestedgeto.into_iter().filter(|&k| k != NONE).collect();
        let mut best = NONE;
        for &k in &list {
            if best == NONE || self.slack(k) < self.slack(best) {
                best = k;
            }
        }
        self.blossombestedges[b] = Some(list);
        self.bestedge[b] = best;
    }

    fn expand_blossom(&mut self, b: usize, endstage: bool) {
        let childs = self.blossomchilds[b].clone();
        for &s in &childs {
            self.blossomparent[s] = NONE;
            if s < self.n {
                self.inblossom[s] = s;
            } else if endstage && self.dualvar[s] == 0 {
                self.expand_blossom(s, endstage);
            } else {
                for leaf in self.leaves_of(s) {
                    self.inblossom[leaf] = s;
                }
            }
        }
        if !endstage && self.label[b] == 2 {
            let entrychild = self.inblossom[self.endpoint[self.labelend[b] ^ 1]];
            let len = childs.len() as isize;
            let mut j = childs
                .iter()
                .position(|&c| c == entrychild)
                .expect("entry child") as isize;
            let (jstep, endptrick): (isize, usize) = if j & 1 != 0 {
                j -= len;
                (1, 0)
            } else {
                (-1, 1)
            };
            let endps = self.blossomendps[b].clone();
            let mut p = self.labelend[b];
            while j != 0 {
                self.label[self.endpoint[p ^ 1]] = 0;
                let q = at(&endps, j - endptrick as isize);
                self.label[self.endpoint[q ^ endptrick ^ 1]] = 0;
                self.assign_label(self.endpoint[p ^ 1], 2, p);
                self.allowedge[q / 2] = true;
                j += jstep;
                p = at(&endps, j - endptrick as isize) ^ endptrick;
                self.allowedge[p / 2] = true;
                j += jstep;
            }
            let bv = at(&childs, j);
            let ep = self.endpoint[p ^ 1];
            self.label[ep] = 2;
            self.label[bv] = 2;
            self.labelend[ep] = p;
            self.labelend[bv] = p;
            self.bestedge[bv] = NONE;
            j += jstep;
            while at(&childs, j) != entrychild {
                let bv = at(&childs, j);
                if self.label[bv] == 1 {
                    j += jstep;
                    continue;
                }
                let mut found = NONE;
                for leaf in self.leaves_of(bv) {
                    if self.label[leaf] != 0 {
                        found = leaf;
                        break;
                    }
                }
                if found != NONE {
                    let v = found;
                    self.label[v] = 0;
                    let mb = self.mate[self.blossombase[bv]];
                    self.label[self.endpoint[mb]] = 0;
                    self.assign_label(v, 2, self.labelend[v]);
                }
                j += jstep;
            }
        }
        self.label[b] = 0;
        self.labelend[b] = NONE;
        self.blossomchilds[b] = Vec::new();
        self.blossomendps[b] = Vec::new();
        self.blossombase[b] = NONE;
        self.blossombestedges[b] = None;
        self.bestedge[b] = NONE;
        self.unusedblossoms.push(b);
    }

    fn augment_blossom(&mut self, b: usize, v: usize) {
        let mut t = v;
        while self.blossomparent[t] != b {
            t = self.blossomparent[t];
        }
        if t >= self.n {
            self.augment_blossom(t, v);
        }
        let childs = self.blossomchilds[b].clone();
        let endps = self.blossomendps[b].clone();
        let len = childs.len() as isize;
        let i = childs.iter().position(|&c| c == t).expect("child") as isize;
        let mut j = i;
        let (jstep, endptrick): (isize, usize) = if i & 1 != 0 {
            j -= len;
            (1, 0)
        } else {
            (-1, 1)
        };
        while j != 0 {
            j += jstep;
            let t = at(&childs, j);
            let p = at(&endps, j - endptrick as isize) ^ endptrick;
            if t >= self.n {
                self.augment_blossom(t, self.endpoint[p]);
            }
            j += jstep;
            let t = at(&childs, j);
            if t >= self.n {
                self.augment_blossom(t, self.endpoint[p ^ 1]);
            }
            self.mate[self.endpoint[p]] = p ^ 1;
            self.mate[self.endpoint[p ^ 1]] = p;
        }
        let i = i as usize;
        let mut nc = childs[i..].to_vec();
        nc.extend_from_slice(&childs[..i]);
        let mut ne = endps[i..].to_vec();
        ne.extend_from_slice(&endps[..i]);
        self.blossombase[b] = self.blossombase[nc[0]];
        self.blossomchilds[b] = nc;
        self.blossomendps[b] = ne;
    }

    fn augment_matching(&mut self, k: usize) {
        let (v, w, _) = self.edges[k];
        for (mut s, mut p) in [(v, 2 * k + 1), (w, 2 * k)] {
            loop {
                let bs = self.inblossom[s];
                if bs >= self.n {
                    self.augment_blossom(bs, s);
                }
                self.mate[s] = p;
                if self.labelend[bs] == NONE {
                    break;
                }
                let t = self.endpoint[self.labelend[bs]];
                let bt = self.inblossom[t];
                s = self.endpoint[self.labelend[bt]];
                let j = self.endpoint[self.labelend[bt] ^ 1];
                if bt >= self.n {
                    self.augment_blossom(bt, j);
                }
                self.mate[j] = self.labelend[bt];
                p = self.labelend[bt] ^ 1;
            }
        }
    }

    fn run(&mut self, max_cardinality: bool) {
        let n = self.n;
        for _stage in 0..n {
            self.label.iter_mut().for_each(|x| *x = 0);
            self.bestedge.iter_mut().for_each(|x| *x = NONE);
            for b in n..2 * n {
                self.blossombestedges[b] = None;
            }
            self.allowedge.iter_mut().for_each(|x| *x = false);
            self.queue.clear();
            for v in 0..n {
                if self.mate[v] == NONE && self.label[self.inblossom[v]] == 0 {
                    self.assign_label(v, 1, NONE);
                }
            }
            let mut augmented = false;
            loop {
                while !augmented {
                    let Some(v) = self.queue.pop() else { break };
                    for idx in 0..self.neighbend[v].len() {
                        let p = self.neighbend[v][idx];
                        let k = p / 2;
                        let w = self.endpoint[p];
                        if self.inblossom[v] == self.inblossom[w] {
                            continue;
                        }
                        let mut kslack = 0;
                        if !self.allowedge[k] {
                            kslack = self.slack(k);
                            if kslack <= 0 {
                                self.allowedge[k] = true;
                            }
                        }
                        if self.allowedge[k] {
                            if self.label[self.inblossom[w]] == 0 {
                                self.assign_label(w, 2, p ^ 1);
                            } else if self.label[self.inblossom[w]] == 1 {
                                let base = self.scan_blossom(v, w);
                                if base != NONE {
                                    self.add_blossom(base, k);
                                } else {
                                    self.augment_matching(k);
                                    augmented = true;
                                    break;
                                }
                            } else if self.label[w] == 0 {
                                self.label[w] = 2;
                                self.labelend[w] = p ^ 1;
                            }
                        } else if self.label[self.inblossom[w]] == 1 {
                            let b = self.inblossom[v];
                            if self.bestedge[b] == NONE || kslack < self.slack(self.bestedge[b]) {
                                self.bestedge[b] = k;
                            }
                        } else if self.label[w] == 0
                            && (self.bestedge[w] == NONE || kslack < self.slack(self.bestedge[w]))
                        {
                            self.bestedge[w] = k;
                        }
                    }
                }
                if augmented {
                    break;
                }
                // Dual update.
                let mut deltatype = 0u8;
                let mut delta = 0i64;
                let mut deltaedge = NONE;
                let mut deltablossom = NONE;
                if !max_cardinality {
                    deltatype = 1;
                    delta = *self.dualvar[..n].iter().min().unwrap_or(&0);
                }
                for v in 0..n {
                    if self.label[self.inblossom[v]] == 0 && self.bestedge[v] != NONE {
                        let d = self.slack(self.bestedge[v]);
                        if deltatype == 0 || d < delta {
                            delta = d;
                            deltatype = 2;
                            deltaedge = self.bestedge[v];
                        }
                    }
                }
                for b in 0..2 * n {
                    if self.blossomparent[b] == NONE
                        && self.label[b] == 1
                        && self.bestedge[b] != NONE
                    {
                        let kslack = self.slack(self.bestedge[b]);
                        debug_assert!(kslack % 2 == 0);
                        let d = kslack / 2;
                        if deltatype == 0 || d < delta {
                            delta = d;
                            deltatype = 3;
                            deltaedge = self.bestedge[b];
                        }
                    }
                }
                for b in n..2 * n {
                    if self.blossombase[b] != NONE
                        && self.blossomparent[b] == NONE
                        && self.label[b] == 2
                        && (deltatype == 0 || self.dualvar[b] < delta)
                    {
                        delta = self.dualvar[b];
                        deltatype = 4;
                        deltablossom = b;
                    }
                }
                if deltatype == 0 {
                    // Max-cardinality optimum reached; a final update makes the duals verifiable.
                    deltatype = 1;
                    delta = (*self.dualvar[..n].iter().min().unwrap_or(&0)).max(0);
                }
                for v in 0..n {
                    match self.label[self.inblossom[v]] {
                        1 => self.dualvar[v] -= delta,
                        2 => self.dualvar[v] += delta,
                        _ => {}
                    }
                }
                for b in n..2 * n {
                    if self.blossombase[b] != NONE && self.blossomparent[b] == NONE {
                        match self.label[b] {
                            1 => self.dualvar[b] += delta,
                            2 => self.dualvar[b] -= delta,
                            _ => {}
                        }
                    }
                }
                match deltatype {
                    1 => break,
                    2 => {
                        self.allowedge[deltaedge] = true;
                        let (mut i, j, _) = self.edges[deltaedge];
                        if self.label[self.inblossom[i]] == 0 {
                            i = j;
                        }
                        self.queue.push(i);
                    }
                    3 => {
                        self.allowedge[deltaedge] = true;
                        let (i, _, _) = self.edges[deltaedge];
                        self.queue.push(i);
                    }
                    _ => self.expand_blossom(deltablossom, false),
                }
            }
            if !augmented {
                break;
            }
            for b in n..2 * n {
                if self.blossomparent[b] == NONE
                    && self.blossombase[b] != NONE
                    && self.label[b] == 1
                    && self.dualvar[b] == 0
                {
                    self.expand_blossom(b, true);
                }
            }
        }
    }
}

/// A maximum-weight matching of the graph on `n` vertices with the given edges `(i, j, weight)`.
/// With `max_cardinality`, the matching has maximum cardinality and, among those, maximum
/// weight. Edges must join distinct vertices below `n`; parallel edges are allowed.
pub fn max_weight_matching(
    n: usize,
    edges: &[(usize, usize, i64)],
    max_cardinality: bool,
) -> Matching {
    let mut s = Solver::new(n, edges);
    if !edges.is_empty() {
        s.run(max_cardinality);
    }
    let mate = s
        .mate
        .iter()
        .map(|&p| if p == NONE { None } else { Some(s.endpoint[p]) })
        .collect();
    let blossom_live = s.blossombase.iter().map(|&b| b != NONE).collect();
    Matching {
        mate,
        dual: s.dualvar,
        blossom_parent: s.blossomparent,
        blossom_live,
    }
}

/// Statistics of a [`min_cost_perfect_matching`] solve.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PricingStats {
    /// How many times the sparse problem was solved.
    pub solves: usize,
    /// Edges in the last sparse problem.
    pub edges: usize,
}

/// A minimum-cost perfect matching of the complete graph on `n` vertices (`n` even), where
/// `cost(i, j)` (for `i < j`) is the cost of pairing `i` with `j`. `candidates` proposes, for
/// each vertex, the vertices worth trying first; the result is exact whatever it proposes, because
/// each solve is checked against every edge of the complete graph with the dual solution and
/// repeated with the violating edges added. Returns the mates, or `None` when `n` is odd (no
/// perfect matching exists).
pub fn min_cost_perfect_matching(
    n: usize,
    cost: &dyn Fn(usize, usize) -> i64,
    candidates: &dyn Fn(usize) -> Vec<usize>,
) -> Option<(Vec<usize>, PricingStats)> {
    if n % 2 == 1 {
        return None;
    }
    if n == 0 {
        return Some((Vec::new(), PricingStats::default()));
    }
    // Weight = big - cost, the same constant for every edge of the complete graph, so a maximum
    // weight perfect matching is a minimum cost one.
    let mut max_cost = i64::MIN;
    for i in 0..n {
        for j in i + 1..n {
            max_cost = max_cost.max(cost(i, j));
        }
    }
    let big = max_cost.saturating_add(1);
    let mut set: std::collections::BTreeSet<(usize, usize)> = std::collections::BTreeSet::new();
    for i in 0..n {
        for j in candidates(i) {
            if j < n && j != i {
                set.insert((i.min(j), i.max(j)));
            }
        }
    }
    let mut stats = PricingStats::default();
    loop {
        let edges: Vec<(usize, usize, i64)> =
            set.iter().map(|&(i, j)| (i, j, big - cost(i, j))).collect();
        stats.solves += 1;
        stats.edges = edges.len();
        let m = max_weight_matching(n, &edges, true);
        if m.mate.iter().any(|x| x.is_none()) {
            // The sparse graph has no perfect matching: widen it to every vertex's next few
            // neighbours by index (and, in the end, to the complete graph).
            let before = set.len();
            let width = (before / n + 4) * 2;
            for i in 0..n {
                for j in i + 1..(i + 1 + width).min(n) {
                    set.insert((i, j));
                }
            }
            if set.len() == before {
                for i in 0..n {
                    for j in i + 1..n {
                        set.insert((i, j));
                    }
                }
            }
            continue;
        }
        let chains = m.blossom_chains();
        let mut violated = Vec::new();
        for i in 0..n {
            for j in i + 1..n {
                if set.contains(&(i, j)) {
                    continue;
                }
                if m.slack(&chains, i, j, big - cost(i, j)) < 0 {
                    violated.push((i, j));
                }
            }
        }
        if violated.is_empty() {
            let mate = m.mate.iter().map(|x| x.unwrap_or(0)).collect();
            return Some((mate, stats));
        }
        set.extend(violated);
    }
}

#[cfg(test)]
#[allow(clippy::needless_range_loop)]
mod tests {
    use super::*;
    use tilebag_core::bag::Rng;

    fn weight_of(edges: &[(usize, usize, i64)], mate: &[Option<usize>]) -> (usize, i64) {
        let mut card = 0;
        let mut w = 0;
        for &(i, j, wt) in edges {
            if mate[i] == Some(j) {
                card += 1;
                w += wt;
            }
        }
        (card, w)
    }

    /// Exhaustive best (cardinality, weight) over all matchings, for tiny graphs.
    fn brute(n: usize, edges: &[(usize, usize, i64)], maxcard: bool) -> (usize, i64) {
        fn rec(
            k: usize,
            used: &mut Vec<bool>,
            edges: &[(usize, usize, i64)],
            card: usize,
            w: i64,
            best: &mut (usize, i64),
            maxcard: bool,
        ) {
            if k == edges.len() {
                let better = if maxcard {
                    (card, w) > *best
                } else {
                    w > best.1 || (w == best.1 && card > best.0)
                };
                if better {
                    *best = (card, w);
                }
                return;
            }
            rec(k + 1, used, edges, card, w, best, maxcard);
            let (i, j, wt) = edges[k];
            if !used[i] && !used[j] {
                used[i] = true;
                used[j] = true;
                rec(k + 1, used, edges, card + 1, w + wt, best, maxcard);
                used[i] = false;
                used[j] = false;
            }
        }
        let mut best = (0, 0);
        rec(0, &mut vec![false; n], edges, 0, 0, &mut best, maxcard);
        best
    }

    #[test]
    fn small_known_cases() {
        // Path a-b-c-d with weights 2, 3, 2: the two outer edges (4) beat the middle one (3).
        let edges = [(0, 1, 2), (1, 2, 3), (2, 3, 2)];
        let m = max_weight_matching(4, &edges, false);
        assert_eq!(m.mate, vec![Some(1), Some(0), Some(3), Some(2)]);
        // A triangle with a pendant (blossom needed).
        let edges = [(0, 1, 6), (0, 2, 10), (1, 2, 12), (2, 3, 5)];
        let m = max_weight_matching(4, &edges, true);
        assert_eq!(weight_of(&edges, &m.mate), (2, 11));
    }

    #[test]
    fn random_graphs_match_brute_force() {
        let mut rng = Rng::new(42);
        for case in 0..600 {
            let n = 2 + rng.below(7);
            let mut edges = Vec::new();
            for i in 0..n {
                for j in i + 1..n {
                    if rng.below(100) < 60 {
                        let w = rng.below(30) as i64 - if case % 3 == 0 { 10 } else { 0 };
                        edges.push((i, j, w));
                    }
                }
            }
            if edges.len() > 14 {
                edges.truncate(14);
            }
            for maxcard in [false, true] {
                let m = max_weight_matching(n, &edges, maxcard);
                // The mate relation is symmetric and uses only edges of the graph.
                for v in 0..n {
                    if let Some(u) = m.mate[v] {
                        assert_eq!(m.mate[u], Some(v));
                        assert!(edges
                            .iter()
                            .any(|&(i, j, _)| (i, j) == (u.min(v), u.max(v))));
                    }
                }
                let got = weight_of(&edges, &m.mate);
                let want = brute(n, &edges, maxcard);
                if maxcard {
                    assert_eq!(got, want, "case {case} maxcard: {edges:?}");
                } else {
                    assert_eq!(got.1, want.1, "case {case}: {edges:?}");
                }
                if maxcard {
                    // The dual solution certifies the matching: every edge has slack >= 0.
                    let chains = m.blossom_chains();
                    for &(i, j, w) in &edges {
                        assert!(m.slack(&chains, i, j, w) >= 0, "case {case}");
                    }
                }
            }
        }
    }

    #[test]
    fn pricing_is_exact_on_complete_graphs() {
        let mut rng = Rng::new(7);
        for case in 0..200 {
            let n = 2 * (1 + rng.below(5));
            let mut c = vec![vec![0i64; n]; n];
            for i in 0..n {
                for j in i + 1..n {
                    let x = rng.below(1000) as i64;
                    c[i][j] = x;
                    c[j][i] = x;
                }
            }
            let cost = |i: usize, j: usize| c[i][j];
            // Deliberately poor candidates: only the next vertex.
            let cand = |i: usize| vec![(i + 1) % n];
            let (mate, _) = min_cost_perfect_matching(n, &cost, &cand).unwrap();
            let got: i64 = (0..n).filter(|&i| mate[i] > i).map(|i| c[i][mate[i]]).sum();
            fn best(c: &[Vec<i64>], used: &mut [bool]) -> i64 {
                let Some(i) = used.iter().position(|u| !u) else {
                    return 0;
                };
                used[i] = true;
                let mut b = i64::MAX;
                for j in 0..used.len() {
                    if !used[j] {
                        used[j] = true;
                        b = b.min(c[i][j] + best(c, used));
                        used[j] = false;
                    }
                }
                used[i] = false;
                b
            }
            assert_eq!(got, best(&c, &mut vec![false; n]), "case {case}");
        }
    }

    /// Larger graphs, checked by the LP certificate: dual feasibility, tight matched edges, and
    /// every blossom with a positive dual full (complementary slackness).
    #[test]
    fn larger_graphs_carry_an_optimality_certificate() {
        let mut rng = Rng::new(99);
        for case in 0..60 {
            let n = 10 + rng.below(50);
            let density = 10 + rng.below(90);
            let mut edges = Vec::new();
            for i in 0..n {
                for j in i + 1..n {
                    if rng.below(100) < density {
                        edges.push((i, j, rng.below(50) as i64 * 2));
                    }
                }
            }
            let m = max_weight_matching(n, &edges, true);
            let chains = m.blossom_chains();
            for &(i, j, w) in &edges {
                let s = m.slack(&chains, i, j, w);
                assert!(s >= 0, "case {case}: edge {i}-{j} slack {s}");
                if m.mate[i] == Some(j) {
                    assert_eq!(s, 0, "case {case}: matched edge {i}-{j} not tight");
                }
            }
            for b in n..2 * n {
                if m.blossom_live[b] && m.dual[b] > 0 {
                    let inside: Vec<usize> = (0..n).filter(|v| chains[*v].contains(&b)).collect();
                    let matched = inside
                        .iter()
                        .filter(|&&v| m.mate[v].is_some_and(|u| inside.contains(&u)))
                        .count();
                    assert_eq!(matched, inside.len() - 1, "case {case}: blossom not full");
                }
            }
        }
    }
}
