//! Mail in and out: the only place that touches mail-parser (inbound) and lettre
//! (outbound).
