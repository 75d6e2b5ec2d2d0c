//! Trial forcing nets, on 9x9: the human path's last resort before brute force, and
//! fast where Sudoku Explainer's nested chains are slow.
//!
//! Depth 1: assume a candidate true and propagate naked and hidden singles; if a cell
//! runs out of candidates or a house out of places for a digit, the candidate is false.
//! Depth 2: assume a candidate true, propagate, then find a cell all of whose candidates
//! lead (each with its own propagation) to a contradiction: the assumption is false.
//! Both are sound (every branch is followed to a contradiction); the step says which
//! assumption failed and, for depth 2, the cell whose every branch fails.
//!
//! Propagation works on bitboards (candidates per cell, cells per digit, placed cells
//! per digit), so one assumption costs a few microseconds.

use super::board::{self, Board, CellSet, Digits};
use super::{Emit, Step, Technique};

/// A position during a trial: candidates of unplaced cells, and cells per digit
/// (candidates and placed).
#[derive(Clone, Copy)]
struct Trial {
    cand: [Digits; 81],
    dcells: [CellSet; 9],
    placed: [CellSet; 9],
}

impl Trial {
    fn new(b: &Board) -> Trial {
        let mut placed = [0u128; 9];
        for c in 0..81 {
            if b.value[c] != 0 {
                placed[b.value[c] as usize - 1] |= 1u128 << c;
            }
        }
        Trial {
            cand: b.cand,
            dcells: b.dcells,
            placed,
        }
    }

    /// Places `d` in `c`; false on a contradiction.
    fn place(&mut self, c: usize, d: u8) -> bool {
        let t = board::tables();
        if self.cand[c] >> (d - 1) & 1 == 0 {
            return false;
        }
        for e in board::digits(self.cand[c]) {
            self.dcells[e as usize - 1] &= !(1u128 << c);
        }
        self.cand[c] = 0;
        self.placed[d as usize - 1] |= 1u128 << c;
        let victims = self.dcells[d as usize - 1] & t.peers[c];
        for p in board::cells(victims) {
            self.cand[p] &= !(1 << (d - 1));
            if self.cand[p] == 0 {
                return false;
            }
        }
        self.dcells[d as usize - 1] &= !victims;
        true
    }

    /// Propagates naked and hidden singles to a fixpoint; false on a contradiction.
    fn propagate(&mut self) -> bool {
        let t = board::tables();
        loop {
            let mut changed = false;
            for c in 0..81 {
                let m = self.cand[c];
                if m != 0 && m & (m - 1) == 0 {
                    if !self.place(c, m.trailing_zeros() as u8 + 1) {
                        return false;
                    }
                    changed = true;
                }
            }
            for d in 0..9 {
                for h in 0..27 {
                    let hm = t.house[h];
                    if self.placed[d] & hm != 0 {
                        continue;
                    }
                    let pos = self.dcells[d] & hm;
                    if pos == 0 {
                        return false;
                    }
                    if pos & (pos - 1) == 0 {
                        if !self.place(board::first(pos), d as u8 + 1) {
                            return false;
                        }
                        changed = true;
                    }
                }
            }
            if !changed {
                return true;
            }
        }
    }
}

/// Whether assuming `d` in `c` leads by singles to a contradiction.
fn fails(start: &Trial, c: usize, d: u8) -> bool {
    let mut t = *start;
    !(t.place(c, d) && t.propagate())
}

/// Trial forcing nets of depth 1 then (if `depth` is 2) depth 2, candidates in cell and
/// digit order.
pub fn trial_nets(b: &Board, depth: u8, emit: Emit) -> bool {
    let start = Trial::new(b);
    for c in 0..81 {
        for d in board::digits(b.cand[c]) {
            let mut after = start;
            let ok = after.place(c, d) && after.propagate();
            if !ok {
                if depth == 1 {
                    let mut st = step(c, d, 1);
                    st.detail = vec![format!(
                        "If r{}c{}={}, placing the singles that follow empties a cell or a house.",
                        c / 9 + 1,
                        c % 9 + 1,
                        crate::symbols::Digits::mark(d)
                    )];
                    if !emit(st) {
                        return false;
                    }
                }
                continue;
            }
            if depth < 2 {
                continue;
            }
            // A cell of the resulting position all of whose candidates fail.
            let mut cells: Vec<usize> = (0..81).filter(|&x| after.cand[x] != 0).collect();
            cells.sort_by_key(|&x| after.cand[x].count_ones());
            for x in cells {
                if board::digits(after.cand[x]).all(|e| fails(&after, x, e)) {
                    let mut st = step(c, d, 2);
                    st.fins = vec![x];
                    st.detail = vec![format!(
                        "If r{}c{}={}, then after the singles every candidate of r{}c{} ({}) leads by singles to a contradiction.",
                        c / 9 + 1,
                        c % 9 + 1,
                        crate::symbols::Digits::mark(d),
                        x / 9 + 1,
                        x % 9 + 1,
                        board::digits(after.cand[x])
                            .map(crate::symbols::Digits::mark)
                            .collect::<Vec<_>>()
                            .join(", ")
                    )];
                    if !emit(st) {
                        return false;
                    }
                    break;
                }
            }
        }
    }
    true
}

fn step(c: usize, d: u8, depth: u8) -> Step {
    let mut st = Step::new(Technique::ForcingNet);
    st.digits = vec![d];
    st.cells = vec![c];
    st.eliminations = vec![(c, d)];
    st.level = depth;
    st.rating = if depth == 1 { 90 } else { 100 };
    st.name = Some(format!("Trial Forcing Net (depth {depth})"));
    st
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::testing::{SAMPLES, check_sound, state};

    #[test]
    fn trial_nets_are_sound_on_samples() {
        for p in SAMPLES {
            let b = Board::from_state(&state(p));
            let mut n = 0;
            trial_nets(&b, 2, &mut |st| {
                check_sound(p, &st);
                n += 1;
                n < 5
            });
        }
    }
}
