"""The approvals around Article IX: state and federal law the Village's boards apply beside it.

One module per statute: :mod:`~sloat_core.approvals.county_referral` (GML § 239-m, § 239-n),
:mod:`~sloat_core.approvals.village_law` (Village Law § 7-728, § 7-725-a clocks),
:mod:`~sloat_core.approvals.seqr` (6 NYCRR Part 617 classes),
:mod:`~sloat_core.approvals.wetland_screens` (ECL Article 24, CWA § 404),
Days are counted by :mod:`sloat_core.law.calendar` (General Construction Law §§ 20, 24, 25-a), the one
calendar the Article IX clocks use too. Their numbers are dated settings in ``data/settings/state_law.yaml``
(:mod:`~sloat_core.approvals.state_law`, read by the one loader of dated facts, :mod:`sloat_core.law.facts`, as
Article IX's parameters are).

The whole package sits below the Article IX rules and imports none of them
(tests/approvals/test_approvals_layers.py): the rules read it (§ 402-46C asks the SEQR class; each permit declares
who decides it), and the one list that puts Article IX's permits and these approvals together is the engine's
(:mod:`sloat_core.engine.approval_list`). Events and their status are the law's own type
(:mod:`sloat_core.law.events`), shared with the Article IX timeline.
Every answer is a screening estimate; nothing here changes an Article IX answer.
"""
