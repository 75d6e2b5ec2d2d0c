//! Simple colouring, on grids up to 9x9: for one digit, the cells joined by conjugate pairs (the
//! digit's only two places in a house) split into two colours, exactly one of which is
//! true. Trap: a cell seeing both colours loses the digit. Wrap: a colour with two cells
//! in one house is false, so all its cells lose the digit.

use super::board::{self, Board, CellSet};
use super::{Emit, Step, Technique};

/// Conjugate-pair clusters of digit `d`, each as its two colours.
fn clusters(b: &Board, d: u8) -> Vec<(CellSet, CellSet)> {
    let t = b.tables();
    let dc = b.digit(d);
    // Conjugate neighbours of each cell.
    let mut link = [0u128; 81];
    for h in 0..t.houses {
        let pos = dc & t.house[h];
        if board::count(pos) == 2 {
            let x = board::first(pos);
            let y = board::first(pos & (pos - 1));
            link[x] |= 1u128 << y;
            link[y] |= 1u128 << x;
        }
    }
    let mut seen: CellSet = 0;
    let mut out = Vec::new();
    for start in board::cells(dc) {
        if seen >> start & 1 == 1 || link[start] == 0 {
            continue;
        }
        let (mut c0, mut c1): (CellSet, CellSet) = (1u128 << start, 0);
        let mut frontier = vec![(start, false)];
        seen |= 1u128 << start;
        while let Some((c, colour)) = frontier.pop() {
            for n in board::cells(link[c]) {
                if seen >> n & 1 == 1 {
                    continue;
                }
                seen |= 1u128 << n;
                if colour {
                    c0 |= 1u128 << n;
                } else {
                    c1 |= 1u128 << n;
                }
                frontier.push((n, !colour));
            }
        }
        out.push((c0, c1));
    }
    out
}

/// Simple colours: wrap first (a colour in conflict), then trap.
pub fn simple_colors(b: &Board, emit: Emit) -> bool {
    let t = b.tables();
    for d in 1..=9u8 {
        for (c0, c1) in clusters(b, d) {
            for (bad, good) in [(c0, c1), (c1, c0)] {
                let conflict = (0..t.houses).any(|h| board::count(bad & t.house[h]) >= 2);
                if conflict {
                    let mut st = Step::new(Technique::SimpleColors);
                    st.digits = vec![d];
                    st.cells = board::cells(good).collect();
                    st.fins = board::cells(bad).collect();
                    st.eliminations = board::cells(bad).map(|c| (c, d)).collect();
                    st.name = Some("Simple Colors Wrap".into());
                    st.rating = 66;
                    if !emit(st) {
                        return false;
                    }
                }
            }
            let mut victims: CellSet = 0;
            for c in board::cells(b.digit(d) & !(c0 | c1)) {
                if t.peers[c] & c0 != 0 && t.peers[c] & c1 != 0 {
                    victims |= 1u128 << c;
                }
            }
            if victims != 0 {
                let mut st = Step::new(Technique::SimpleColors);
                st.digits = vec![d];
                st.cells = board::cells(c0).collect();
                st.fins = board::cells(c1).collect();
                st.eliminations = board::cells(victims).map(|c| (c, d)).collect();
                st.name = Some("Simple Colors Trap".into());
                st.rating = 65;
                if !emit(st) {
                    return false;
                }
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::testing::{SAMPLES, check_sound, state};

    #[test]
    fn colors_are_sound_on_samples() {
        for p in SAMPLES {
            let b = Board::from_state(&state(p));
            simple_colors(&b, &mut |st| {
                check_sound(p, &st);
                true
            });
        }
    }
}
