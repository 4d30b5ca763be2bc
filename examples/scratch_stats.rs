use yinsh_pbem::notation::auto_pass_due;
use yinsh_pbem::rules::*;
fn main() {
    let mut s: u64 = 88172645463325252;
    let mut next = || { s ^= s << 13; s ^= s >> 7; s ^= s << 17; s };
    let mut stats = std::collections::HashMap::new();
    for _ in 0..20000 {
        let mut g = Game::new(Variant::Normal);
        let mut autos = 0;
        let mut passes = 0;
        while !g.is_over() {
            if auto_pass_due(&g) { autos += 1; }
            let l = g.legal_actions();
            let a = l[(next() % l.len() as u64) as usize];
            if a == Action::Pass { passes += 1; }
            g.play(a).unwrap();
        }
        let e = g.ending().unwrap();
        *stats.entry((format!("{:?}", e.reason), autos > 0, passes > 0, e.outcome.winner().is_some())).or_insert(0) += 1;
    }
    let mut v: Vec<_> = stats.into_iter().collect(); v.sort();
    for x in v { println!("{:?}", x); }
}
