//! Permutations shared by the engines, the counters and the canonical forms.

/// The six permutations of three things in lexicographic order: `THREE[p][i]` is where
/// item `i` goes (a row of a band, a column of a stack) under permutation `p`.
pub(crate) const THREE: [[u8; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

/// The next permutation in lexicographic order; false (and the first one) after the last.
pub(crate) fn next_permutation(p: &mut [usize]) -> bool {
    let Some(i) = p.windows(2).rposition(|w| w[0] < w[1]) else {
        p.reverse();
        return false;
    };
    let j = p
        .iter()
        .rposition(|&x| x > p[i])
        .expect("p[i + 1] is larger");
    p.swap(i, j);
    p[i + 1..].reverse();
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn permutations_run_through_all_n_factorial() {
        let mut p: Vec<usize> = (0..5).collect();
        let mut seen = std::collections::HashSet::new();
        loop {
            seen.insert(p.clone());
            if !next_permutation(&mut p) {
                break;
            }
        }
        assert_eq!(seen.len(), 120);
        assert_eq!(p, vec![0, 1, 2, 3, 4]);
    }

    #[test]
    fn three_lists_the_permutations_of_three_in_order() {
        let mut p = vec![0, 1, 2];
        for perm in THREE {
            assert_eq!(perm.map(usize::from).to_vec(), p);
            next_permutation(&mut p);
        }
    }
}
