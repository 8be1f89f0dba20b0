import Testing

@testable import NavigationRouting

struct TemplateTests {
    @Test func referencesBetweenMultibyteTextRender() throws {
        let template = try Template("é-{id}-👍{{x}}")
        #expect(template.parts == [.text("é-"), .parameter("id"), .text("-👍{x}")])
        #expect(template.render(["id": "42"]) == "é-42-👍{x}")
    }

    @Test func plainTextRendersUnchangedWithoutParsing() {
        #expect(Template.render("café", [:]) == "café")
        #expect(Template.render("", [:]) == "")
    }

    @Test func absentReferenceRendersNothing() {
        #expect(Template.render("item-{id}", [:]) == nil)
    }

    @Test(arguments: ["{", "}", "{id", "{é}", "{1a}", "a}b"])
    func malformedTemplatesAreInvalid(text: String) {
        #expect(throws: Template.Invalid.self) { try Template(text) }
    }
}
