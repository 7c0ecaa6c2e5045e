"""The contributor's tools over the knowledge base: the gate (check) and the scaffold (new).

They sit above the whole explain flow, since the gate explains every example; the data layer they
check is ``trtdoctor.kb``.
"""
