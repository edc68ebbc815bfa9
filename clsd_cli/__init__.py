"""The ``clsd`` command: one light entry point over the plugin, the generator and the analysis.

Why a package of its own: ``import clsd_mteb`` registers the tasks with mteb (its documented
contract), which imports mteb, torch and scikit-learn (about three seconds). The command line lives
outside that package so that ``clsd --help`` and every command's ``--help`` answer at once; each
command imports what it needs when it runs.
"""
