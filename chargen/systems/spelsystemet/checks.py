"""Spelsystemet's pack checks: what the table specs cannot say."""

from __future__ import annotations

from chargen.errors import Problem
from chargen.tables import Tables
from chargen.tomlfile import key_line


def check_pack(tables: Tables) -> list[Problem]:
    """What the specs cannot say: a yrke's skills exist in one of its genres at least; its
    `specifikationer` name <klass> skills it gives, each specification one that a genre
    of the yrke lists for that skill's klass."""
    yrken, skills, genres = tables["yrken"], tables["fardigheter"], tables["genrer"]
    out = []
    caps = tables["regler"].settings.get("tak", {})
    for index, skill in enumerate(skills.entries):
        if skill["grupp"] not in caps:
            out.append(
                Problem(
                    str(skills.path),
                    key_line(skills.text, "grupp", index),
                    f"'{skill['id']}': grupp '{skill['grupp']}' has no cap in regler.toml's tak "
                    f"({', '.join(caps)})",
                )
            )
    for job in yrken.entries:
        for skill_id in job["fardigheter"]:
            if skill_id not in skills:
                continue
            skill = skills.get(skill_id)
            # a skill missing in some of the yrke's genres is not given there (no Rida in
            # the Framtid); one that exists in none of them is a slip
            missing = [g for g in job["genrer"] if "genrer" in skill and g not in skill["genrer"]]
            if missing and len(missing) == len(job["genrer"]):
                at = skills.entries.index(skill)
                out.append(
                    Problem(
                        str(skills.path),
                        key_line(skills.text, "genrer", at),
                        f"'{skill_id}' does not exist in {', '.join(missing)}, where the yrke "
                        f"'{job['id']}' gives it",
                    )
                )
    for index, job in enumerate(yrken.entries):
        line = key_line(yrken.text, "specifikationer", index)
        for skill_id, wanted in job.get("specifikationer", {}).items():
            where = f"yrken.toml '{job['id']}': specifikationer.{skill_id}"
            if skill_id not in job["fardigheter"]:
                out.append(Problem(str(yrken.path), line, f"{where}: not a skill the yrke gives"))
                continue
            klass = skills.get(skill_id).get("klass") if skill_id in skills else None
            if not klass:
                out.append(Problem(str(yrken.path), line, f"{where}: not a <klass> skill"))
                continue
            offered = {
                s for g in job["genrer"] if g in genres for s in genres.get(g).get(klass, ())
            }
            for spec in wanted:
                if spec not in offered:
                    out.append(
                        Problem(
                            str(yrken.path),
                            line,
                            f"{where}: '{spec}' is in no {klass} list of the yrke's genres",
                        )
                    )
    return out
